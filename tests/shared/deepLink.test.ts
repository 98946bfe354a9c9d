import { describe, expect, it } from 'vitest';
import { DEEP_LINK_MAX_LENGTH, inviteLink, parseDeepLink } from '../../shared/deepLink';
import { encode } from '../../shared/roomCode';
import { encodeDirectCode, encodeInternetCode } from '../../shared/rendezvous';
import { deepLinkSchema } from '../../shared/ipc/schemas/shell';

const lanCode = encode('192.168.1.20', 9000);
const internetCode = encode('203.0.113.7', 45123);
// The two kinds of NET- code: a rendezvous room's (16 characters) and a direct room's (21, its router's address).
const rendezvousCode = encodeInternetCode('7K2MQ9', 'XA4H0RBN3');
const directCode = encodeDirectCode('203.0.113.7', 45123, 'XA4H0RBN3');

function refused(input: unknown): string {
  const parsed = parseDeepLink(input);
  if (parsed.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return parsed.reason;
}

describe('parseDeepLink: what it accepts', () => {
  it.each([
    [`lanparty://join/${lanCode}`, lanCode],
    [`lanparty://join/${internetCode}`, internetCode],
    // Some launchers append a slash; scheme and host are case-insensitive; the code is read as people type it.
    [`lanparty://join/${lanCode}/`, lanCode],
    [`LanParty://JOIN/${lanCode}`, lanCode],
    [`lanparty://join/${lanCode.toLowerCase()}`, lanCode],
    [`lanparty://join/${lanCode.replace('-', '')}`, lanCode],
    [`lanparty://join/${lanCode.replace('-', '%2D')}`, lanCode],
    [`lanparty://join/${lanCode.replace('-', '.')}`, lanCode],
    [`lanparty://join/${rendezvousCode}`, rendezvousCode],
    [`lanparty://join/${directCode}`, directCode],
    [`lanparty://join/${directCode}/`, directCode],
    [`lanparty://join/${directCode.toLowerCase()}`, directCode],
    [`lanparty://join/${directCode.replaceAll('-', '%2D')}`, directCode],
    [`lanparty://join/${rendezvousCode.replaceAll('-', '').replaceAll('0', 'O')}`, rendezvousCode],
  ])('%s → %s', (link, code) => {
    expect(parseDeepLink(link)).toEqual({ ok: true, link: { kind: 'join', code } });
  });

  it('reads back every invite link it makes', () => {
    for (const code of [lanCode, internetCode, encode('10.0.0.1', 1), rendezvousCode, directCode]) {
      expect(parseDeepLink(inviteLink(code))).toEqual({ ok: true, link: { kind: 'join', code } });
    }
    expect(inviteLink(lanCode)).toBe(`lanparty://join/${lanCode}`);
  });

  it('hands the page a link the IPC contract takes, for every kind of code', () => {
    for (const code of [lanCode, rendezvousCode, directCode]) {
      const parsed = parseDeepLink(inviteLink(code));
      expect(parsed.ok && deepLinkSchema.safeParse(parsed.link).success).toBe(true);
    }
  });
});

describe('parseDeepLink: what it refuses', () => {
  it.each([
    [`https://join/${lanCode}`, 'not a lanparty: link'],
    [`javascript:alert(1)`, 'not a lanparty: link'],
    [`file:///etc/passwd`, 'not a lanparty: link'],
    [`lanpartyx://join/${lanCode}`, 'not a lanparty: link'],
    [`${lanCode}`, 'not a lanparty: link'],
    [`lanparty:join/${lanCode}`, 'no //join/'],
    [`lanparty://host/${lanCode}`, 'not a join link'],
    [`lanparty://user@join/${lanCode}`, 'not a join link'],
    [`lanparty://join:80/${lanCode}`, 'not a join link'],
    [`lanparty://join`, 'expected one path segment, got 0'],
    [`lanparty://join/`, 'characters a room code never has'],
    [`lanparty://join/${lanCode}/extra`, 'expected one path segment, got 2'],
    [`lanparty://join/${lanCode}//`, 'expected one path segment, got 3'],
    [`lanparty://join/../${lanCode}`, 'expected one path segment, got 2'],
    [`lanparty://join/${lanCode}?password=x`, 'query or fragment'],
    [`lanparty://join/${lanCode}#frag`, 'query or fragment'],
    [`lanparty://join/${lanCode} --inspect`, 'characters a room code never has'],
    [`lanparty://join/${lanCode}%20--inspect`, 'characters a room code never has'],
    [`lanparty://join/%E0%A4%A`, 'broken percent-encoding'],
    [`lanparty://join/%2F%2F`, 'characters a room code never has'],
    [`lanparty://join/ABCDE`, 'bad room code: room code has 5 characters'],
    [`lanparty://join/OOOOO-OOOOO`, "invalid character 'O'"],
    // Ten valid characters that hold more than an address and a port.
    [`lanparty://join/ZZZZZ-ZZZZZ`, 'bad room code: room code is too large'],
    // NET- codes: a mistyped character, a length no kind has, a character outside the alphabet.
    [
      `lanparty://join/${directCode.slice(0, -1)}${directCode.endsWith('0') ? '1' : '0'}`,
      'bad internet code: a character is mistyped',
    ],
    [`lanparty://join/${rendezvousCode}-7`, 'bad internet code: an internet code has 16, 21 or 63 characters'],
    [`lanparty://join/NET-${'U'.repeat(16)}`, 'bad internet code:'],
  ])('%s', (link, reason) => {
    expect(refused(link)).toContain(reason);
  });

  it('refuses huge input before looking at it, and says so briefly', () => {
    const huge = `lanparty://join/${'A'.repeat(1_000_000)}`;
    const reason = refused(huge);
    expect(reason).toBe(`too long (${huge.length} characters)`);
    expect(refused(`lanparty://join/${lanCode}`.padEnd(DEEP_LINK_MAX_LENGTH + 1, '/'))).toMatch(/^too long/);
  });

  it('refuses what is not text without throwing', () => {
    for (const value of [undefined, null, 42, {}, ['lanparty://join/x']]) {
      expect(() => parseDeepLink(value)).not.toThrow();
      expect(refused(value)).toMatch(/^not text/);
    }
  });

  it('never echoes the input in its reason', () => {
    const secret = `lanparty://join/${lanCode}?token=hunter2`;
    expect(refused(secret)).not.toContain('hunter2');
  });
});
