import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from './builderConfig';

const script = readFileSync(`${ROOT}build/installer.nsh`, 'utf8');

/** The body of `!macro <name>` … `!macroend`, comments dropped; throws when the macro is missing. */
function macroBody(name: string): string[] {
  const match = new RegExp(`^!macro ${name}\\s*$([\\s\\S]*?)^!macroend`, 'm').exec(script);
  if (!match) throw new Error(`build/installer.nsh has no !macro ${name}`);
  return (match[1] ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith(';') && !line.startsWith('#'));
}

/** The netsh command lines of a macro, with the rule-name define resolved. */
function netshCommands(name: string): string[] {
  const ruleName = /^!define LAN_PARTY_FIREWALL_RULE "([^"]+)"$/m.exec(script)?.[1];
  return macroBody(name)
    .filter((line) => line.startsWith('nsExec::ExecToLog '))
    .map((line) =>
      line.replace(/^nsExec::ExecToLog '(.*)'$/, '$1').replaceAll('${LAN_PARTY_FIREWALL_RULE}', ruleName ?? '?'),
    );
}

const PROGRAM = 'program="$INSTDIR\\${APP_EXECUTABLE_FILENAME}"';

describe('build/installer.nsh', () => {
  it('customInstall adds an inbound UDP allow rule for the app exe on private and domain networks', () => {
    const add = netshCommands('customInstall').filter((command) => command.includes(' add rule '));
    expect(add).toHaveLength(1);
    const rule = add[0]!;
    expect(rule).toMatch(/^netsh advfirewall firewall add rule name="LAN Party \(UDP in\)" /);
    for (const part of ['dir=in', 'action=allow', 'protocol=UDP', PROGRAM, 'profile=private,domain', 'enable=yes']) {
      expect(rule).toContain(` ${part}`);
    }
    expect(rule).not.toMatch(/public|profile=any/i);
  });

  it('customInstall first removes a stale copy of the same rule', () => {
    const commands = netshCommands('customInstall');
    expect(commands[0]).toBe(`netsh advfirewall firewall delete rule name="LAN Party (UDP in)" ${PROGRAM}`);
    expect(commands[1]).toContain(' add rule ');
  });

  it('customUnInstall removes exactly that rule', () => {
    expect(netshCommands('customUnInstall')).toEqual([
      `netsh advfirewall firewall delete rule name="LAN Party (UDP in)" ${PROGRAM}`,
    ]);
  });

  it('balances the NSIS stack in both macros (each exec pushes its exit code)', () => {
    for (const name of ['customInstall', 'customUnInstall']) {
      const body = macroBody(name);
      const pushes = body.filter((line) => line.startsWith('Push ') || line.startsWith('nsExec::ExecToLog ')).length;
      const pops = body.filter((line) => line.startsWith('Pop ')).length;
      expect(pops, name).toBe(pushes);
    }
  });

  it('a missing macro is reported, not silently passed', () => {
    expect(() => macroBody('customNothing')).toThrow(/no !macro customNothing/);
  });
});
