; Included by electron-builder's NSIS script (nsis.include in electron-builder.yml). The installer is per-machine
; and elevated, so it can add one program-scoped inbound UDP rule: LAN discovery answers and hosting need it,
; and users who click "Allow" on the Defender prompt without ticking Private end up with a rule that does not
; apply on their LAN. Only private and domain profiles: a café or hotel network stays closed. Rules are keyed
; to the exe path, which NSIS updates keep, so the rule survives updates (each update reinstalls it).

!define LAN_PARTY_FIREWALL_RULE "LAN Party (UDP in)"

!macro customInstall
  ; Keep the caller's $0: the install section may still use it.
  Push $0
  ; Drop any copy left by an earlier install first, so reinstalling never stacks duplicate rules.
  nsExec::ExecToLog 'netsh advfirewall firewall delete rule name="${LAN_PARTY_FIREWALL_RULE}" program="$INSTDIR\${APP_EXECUTABLE_FILENAME}"'
  Pop $0
  nsExec::ExecToLog 'netsh advfirewall firewall add rule name="${LAN_PARTY_FIREWALL_RULE}" dir=in action=allow protocol=UDP program="$INSTDIR\${APP_EXECUTABLE_FILENAME}" profile=private,domain enable=yes description="LAN discovery (UDP 9998) and game hosting for LAN Party"'
  Pop $0
  ; netsh exits 0 on success; otherwise note it and carry on (Windows then asks on first hosting).
  StrCmp $0 "0" +2
    DetailPrint "Could not add the LAN Party firewall rule (netsh: $0); Windows will ask when LAN Party first hosts."
  Pop $0
!macroend

!macro customUnInstall
  Push $0
  nsExec::ExecToLog 'netsh advfirewall firewall delete rule name="${LAN_PARTY_FIREWALL_RULE}" program="$INSTDIR\${APP_EXECUTABLE_FILENAME}"'
  ; netsh's exit code: nothing to do if the rule was already gone.
  Pop $0
  Pop $0
!macroend
