import { describe, expect, it } from 'vitest';
import { encodeRoomCodeForHost, resolveRoomHost } from '../../../main/net/resolveRoomHost';
import { RoomCodeError, RoomCodeFormat, decode } from '../../../shared/roomCode';

const table: Record<string, string> = { 'game-pc.lan': '192.168.1.50', 'v6only.lan': '::1' };
const lookups: string[] = [];
const fakeLookup = async (name: string): Promise<string> => {
  lookups.push(name);
  const address = table[name];
  if (address === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return address;
};

async function rejection(promise: Promise<unknown>): Promise<RoomCodeError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RoomCodeError) return error;
    throw error;
  }
  throw new Error('expected a RoomCodeError');
}

describe('resolveRoomHost', () => {
  it('uses an IPv4 literal as is, without a lookup', async () => {
    lookups.length = 0;
    expect(await resolveRoomHost('10.0.0.7', fakeLookup)).toBe('10.0.0.7');
    expect(await resolveRoomHost(' 10.0.0.7 ', fakeLookup)).toBe('10.0.0.7');
    expect(lookups).toEqual([]);
  });

  it('resolves host names to IPv4', async () => {
    expect(await resolveRoomHost('game-pc.lan', fakeLookup)).toBe('192.168.1.50');
  });

  it('fails clearly for unknown names, non-IPv4 answers and empty input', async () => {
    const unknown = await rejection(resolveRoomHost('nowhere.lan', fakeLookup));
    expect(unknown.reason).toBe('invalid-host');
    expect(unknown.message).toBe('cannot resolve "nowhere.lan" to an IPv4 address (ENOTFOUND)');
    expect((await rejection(resolveRoomHost('v6only.lan', fakeLookup))).message).toContain('not an IPv4 address');
    expect((await rejection(resolveRoomHost('  ', fakeLookup))).reason).toBe('invalid-host');
  });
});

describe('encodeRoomCodeForHost', () => {
  it('encodes the resolved address, in any format', async () => {
    const code = await encodeRoomCodeForHost('game-pc.lan', 7777, undefined, fakeLookup);
    expect(decode(code)).toEqual({ host: '192.168.1.50', port: 7777 });
    const hex = new RoomCodeFormat({ alphabet: '0123456789ABCDEF', groupSize: 3, groupSeparator: ' ' });
    expect(await encodeRoomCodeForHost('38.12.199.177', 62899, hex, fakeLookup)).toBe('260 CC7 B1F 5B3');
  });

  it('refuses a bad port before looking anything up', async () => {
    lookups.length = 0;
    expect((await rejection(encodeRoomCodeForHost('game-pc.lan', 70000, undefined, fakeLookup))).reason).toBe(
      'invalid-port',
    );
    expect(lookups).toEqual([]);
  });
});
