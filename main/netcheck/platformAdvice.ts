import type { NetworkAdvice } from '../../shared/netcheck/report';

/** What the tips need to name: the two UDP ports and, on Windows, the app's exe. */
export interface AdviceContext {
  readonly discoveryPort: number;
  readonly gamePort: number;
  /** Full path of the LAN Party executable, for the Windows firewall rule. */
  readonly execPath: string;
}

/** Name of the firewall rule the Windows installer adds (build/installer.nsh). */
export const WINDOWS_FIREWALL_RULE = 'LAN Party (UDP in)';

const tip = (id: string, title: string, detail: string, commands: string[] = []): NetworkAdvice => ({
  id,
  severity: 'info',
  title,
  detail,
  commands,
});

function windowsAdvice({ execPath }: AdviceContext): NetworkAdvice[] {
  return [
    tip(
      'windows-private-network',
      'Mark your network as Private',
      'Windows keeps LAN games out on networks marked Public. Open Settings › Network & internet, choose your ' +
        'Wi-Fi or Ethernet connection and set "Network profile type" to Private. Virtual adapters (Hyper-V, WSL, ' +
        'Docker, VPNs) are often Public; that is fine as long as the network you share with the players is Private. ' +
        "From an administrator PowerShell (use your connection's InterfaceAlias from the first command):",
      ['Get-NetConnectionProfile', 'Set-NetConnectionProfile -InterfaceAlias "Wi-Fi" -NetworkCategory Private'],
    ),
    tip(
      'windows-firewall',
      'Allow LAN Party through Windows Defender Firewall on private networks',
      'The installer adds an inbound UDP rule for LAN Party on private and domain networks. If it is missing, or ' +
        'you clicked Allow on the firewall prompt without ticking Private, open Windows Security › Firewall & ' +
        'network protection › Allow an app through firewall and tick Private for LAN Party. A block rule for LAN ' +
        'Party beats every allow rule: remove it there. From an administrator prompt:',
      [
        `netsh advfirewall firewall add rule name="${WINDOWS_FIREWALL_RULE}" dir=in action=allow protocol=UDP program="${execPath}" profile=private,domain`,
        `netsh advfirewall firewall show rule name="${WINDOWS_FIREWALL_RULE}" verbose`,
      ],
    ),
    tip(
      'windows-virtual-adapters',
      'VPN and virtual adapters can swallow searches',
      'Windows sends 255.255.255.255 through one adapter only, and a VPN, Hamachi, ZeroTier, VirtualBox or ' +
        'Hyper-V adapter can be the one. LAN Party also searches each network directly, but if a room still does ' +
        'not appear, disconnect the VPN or join by address.',
    ),
  ];
}

function macAdvice(): NetworkAdvice[] {
  return [
    tip(
      'macos-local-network',
      'Allow Local Network access',
      'macOS asks once whether LAN Party may use the local network. If the answer was no, open System Settings › ' +
        'Privacy & Security › Local Network, turn LAN Party on and restart it. Without it, searches find nothing ' +
        'and joining fails with "No route to host".',
    ),
    tip(
      'macos-launch-from-finder',
      'Launch LAN Party from Finder to test',
      'Programs started from Terminal skip the Local Network check, so a problem can hide there. Start LAN Party ' +
        'from Finder, Launchpad or the Dock to see what players see.',
    ),
    tip(
      'macos-firewall',
      'Let friends connect to your rooms',
      'If the macOS firewall is on (System Settings › Network › Firewall), allow incoming connections for LAN ' +
        'Party so players can join the rooms you host.',
    ),
  ];
}

function linuxAdvice({ discoveryPort, gamePort }: AdviceContext): NetworkAdvice[] {
  const ports = [...new Set([discoveryPort, gamePort])];
  return [
    tip(
      'linux-ufw',
      'Open the UDP ports in ufw',
      `With ufw active, answers to LAN searches and players joining your rooms are dropped unless UDP ${ports.join(' and ')} are open:`,
      ports.map((port) => `sudo ufw allow ${port}/udp`),
    ),
    tip(
      'linux-firewalld',
      'Open the UDP ports in firewalld',
      `With firewalld (Fedora, RHEL, openSUSE), open UDP ${ports.join(' and ')} permanently:`,
      ports.map((port) => `sudo firewall-cmd --add-port=${port}/udp --permanent && sudo firewall-cmd --reload`),
    ),
  ];
}

function otherAdvice({ discoveryPort, gamePort }: AdviceContext): NetworkAdvice[] {
  return [
    tip(
      'firewall-ports',
      'Open the UDP ports in your firewall',
      `LAN Party uses UDP ${discoveryPort} to find rooms and UDP ${gamePort} to play; allow both from your LAN.`,
    ),
  ];
}

/** Tips that hold everywhere: same network, and the manual join that always works. */
function generalAdvice(): NetworkAdvice[] {
  return [
    tip(
      'same-network',
      'Be on the same network',
      'Everyone must be on the same network: the same Wi-Fi (not a guest network, which often keeps devices ' +
        'apart) or the same wired LAN.',
    ),
    tip(
      'manual-join',
      'Join by address when a room does not show up',
      'Searching is best effort. The host can read the room code or address and port in the room, and players ' +
        'can type it in Join.',
    ),
  ];
}

/** The tips for a platform (`process.platform` values), then the general ones. Pure. */
export function platformAdvice(platform: string, context: AdviceContext): NetworkAdvice[] {
  const specific =
    platform === 'win32'
      ? windowsAdvice(context)
      : platform === 'darwin'
        ? macAdvice()
        : platform === 'linux'
          ? linuxAdvice(context)
          : otherAdvice(context);
  return [...specific, ...generalAdvice()];
}
