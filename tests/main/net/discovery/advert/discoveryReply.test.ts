import { describe, expect, it } from 'vitest';
import { DISCOVERY, buildReferenceReply, buildRichReply, parseDiscoveryReply } from '../../../../../main/net/discovery';
import { pythonJsonObject } from '../../../../../main/net/discovery/advert/discoveryReply';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const bytes = (value: string) => new TextEncoder().encode(value);

describe('reference reply', () => {
  it('is byte for byte what the reference server sends (json.dumps layout, ASCII escapes)', () => {
    expect(text(buildReferenceReply({ name: 'Arena', port: 7777, playerCount: 3 }))).toBe(
      'GALEDISC1{"name": "Arena", "port": 7777, "player_count": 3}',
    );
    // Expected bytes produced by Python 3: json.dumps({"name": "Café 🎲 \"x\"", ...}).
    expect(text(buildReferenceReply({ name: 'Café 🎲 "x"', port: 1, playerCount: 0 }))).toBe(
      'GALEDISC1{"name": "Caf\\u00e9 \\ud83c\\udfb2 \\"x\\"", "port": 1, "player_count": 0}',
    );
  });

  it('escapes like Python for DEL and control characters', () => {
    expect(pythonJsonObject([['k', 'a\u007fb\u0001\n']])).toBe('{"k": "a\\u007fb\\u0001\\n"}');
  });

  it('keeps every reply within the 512 bytes the reference reads, shortening long names', () => {
    const reply = buildReferenceReply({ name: '🎲'.repeat(500), port: 65535, playerCount: 999999 });
    expect(reply.length).toBeLessThanOrEqual(DISCOVERY.MAX_DATAGRAM_BYTES);
    // Each die is 12 bytes once escaped, so the name is cut to whole characters until the reply fits.
    const name = parseDiscoveryReply(reply)?.name ?? '';
    expect(name).toMatch(/^(🎲)+$/u);
    expect(reply.length).toBeGreaterThan(DISCOVERY.MAX_DATAGRAM_BYTES - 12);
    const short = buildReferenceReply({ name: '🎲'.repeat(500), port: 1, playerCount: 0 });
    expect(Array.from(parseDiscoveryReply(short)?.name ?? '').length).toBeGreaterThan(Array.from(name).length - 1);
    expect(parseDiscoveryReply(buildReferenceReply({ name: 'n'.repeat(500), port: 1, playerCount: 0 }))?.name).toBe(
      'n'.repeat(DISCOVERY.MAX_NAME_CHARS),
    );
    const rich = buildRichReply({
      name: '\u{10ffff}'.repeat(300),
      port: 65535,
      playerCount: 999999,
      capacity: 999999,
      passwordProtected: true,
      gameName: '\u{10ffff}'.repeat(300),
      instanceId: 'x'.repeat(64),
      nonce: 0xffffffff,
    });
    expect(rich.length).toBeLessThanOrEqual(DISCOVERY.MAX_DATAGRAM_BYTES);
    expect(parseDiscoveryReply(rich)).toMatchObject({ port: 65535, instanceId: 'x'.repeat(64), nonce: 0xffffffff });
  });

  it('removes control and bidi-override characters from advertised names', () => {
    const reply = buildReferenceReply({ name: ' Evil\u202Egnp.exe\u0007 ', port: 5, playerCount: 0 });
    expect(text(reply)).toBe('GALEDISC1{"name": "Evilgnp.exe", "port": 5, "player_count": 0}');
  });
});

describe('rich reply', () => {
  it('puts the reference fields first and adds LAN Party fields the reference ignores', () => {
    const reply = buildRichReply({
      name: 'Arena',
      port: 7777,
      playerCount: 2,
      capacity: 8,
      passwordProtected: false,
      gameName: 'Tanks',
      instanceId: 'abc123',
      nonce: 9,
    });
    expect(text(reply)).toBe(
      'GALEDISC1{"name": "Arena", "port": 7777, "player_count": 2, "protocol": 1, "capacity": 8, ' +
        '"password": false, "game": "Tanks", "id": "abc123", "nonce": 9}',
    );
    expect(parseDiscoveryReply(reply)).toEqual({
      name: 'Arena',
      port: 7777,
      playerCount: 2,
      protocolVersion: 1,
      capacity: 8,
      passwordProtected: false,
      gameName: 'Tanks',
      instanceId: 'abc123',
      nonce: 9,
    });
  });
});

describe('parseDiscoveryReply', () => {
  it('reads the reference reply, compact JSON and extra whitespace', () => {
    const expected = { name: 'Py', port: 9000, playerCount: 1 };
    expect(parseDiscoveryReply(bytes('GALEDISC1{"name": "Py", "port": 9000, "player_count": 1}'))).toEqual(expected);
    expect(parseDiscoveryReply(bytes('GALEDISC1{"name":"Py","port":9000,"player_count":1}'))).toEqual(expected);
    expect(parseDiscoveryReply(bytes('GALEDISC1 \n{"player_count":1,"port":9000,"name":"Py"}  '))).toEqual(expected);
  });

  it.each([
    ['empty', ''],
    ['wrong magic', 'GALEDISC2{"name": "x", "port": 1, "player_count": 0}'],
    ['magic only (a request)', 'GALEDISC1'],
    ['our query', 'GALEDISC1{"query": "lanparty", "v": 1}'],
    ['not JSON', 'GALEDISC1{name: x}'],
    ['a JSON array', 'GALEDISC1["x", 1, 0]'],
    ['JSON null', 'GALEDISC1null'],
    ['a missing name', 'GALEDISC1{"port": 1, "player_count": 0}'],
    ['a numeric name', 'GALEDISC1{"name": 5, "port": 1, "player_count": 0}'],
    ['port 0', 'GALEDISC1{"name": "x", "port": 0, "player_count": 0}'],
    ['port 65536', 'GALEDISC1{"name": "x", "port": 65536, "player_count": 0}'],
    ['a fractional port', 'GALEDISC1{"name": "x", "port": 80.5, "player_count": 0}'],
    ['a string port', 'GALEDISC1{"name": "x", "port": "80", "player_count": 0}'],
    ['a negative player count', 'GALEDISC1{"name": "x", "port": 1, "player_count": -1}'],
    ['a huge player count', 'GALEDISC1{"name": "x", "port": 1, "player_count": 1e300}'],
  ])('ignores a reply with %s', (_name, raw) => {
    expect(parseDiscoveryReply(bytes(raw))).toBeUndefined();
  });

  it('ignores invalid UTF-8 and oversized datagrams', () => {
    const invalidUtf8 = new Uint8Array([
      ...bytes('GALEDISC1{"name": "'),
      0xff,
      0xfe,
      ...bytes('", "port": 1, "player_count": 0}'),
    ]);
    expect(parseDiscoveryReply(invalidUtf8)).toBeUndefined();
    const padded = `GALEDISC1{"name": "x", "port": 1, "player_count": 0}`.padEnd(513, ' ');
    expect(parseDiscoveryReply(bytes(padded))).toBeUndefined();
    expect(parseDiscoveryReply(bytes(padded.slice(0, 512)))).toEqual({ name: 'x', port: 1, playerCount: 0 });
  });

  it('drops invalid optional fields but keeps the reply', () => {
    const raw =
      'GALEDISC1{"name": "x", "port": 1, "player_count": 0, "protocol": 0, "capacity": -2, "password": "no", ' +
      '"game": 7, "id": "has space", "nonce": -1, "host": "203.0.113.9"}';
    expect(parseDiscoveryReply(bytes(raw))).toEqual({ name: 'x', port: 1, playerCount: 0 });
  });

  it('never throws, whatever the bytes', () => {
    let seed = 1;
    for (let i = 0; i < 2000; i += 1) {
      const length = (i * 7) % 600;
      const junk = new Uint8Array(length).map(() => {
        seed = (seed * 1103515245 + 12345) >>> 0;
        return seed >>> 24;
      });
      if (i % 2 === 0) junk.set(bytes('GALEDISC1{"name"').subarray(0, Math.min(16, length)));
      expect(() => parseDiscoveryReply(junk)).not.toThrow();
    }
  });
});

describe('host player and room state fields', () => {
  it('round-trip through a rich reply, and invalid ones are left out', () => {
    const reply = buildRichReply({ name: 'Den', port: 9000, playerCount: 1, hostName: 'Ada', inRound: true });
    expect(text(reply)).toContain('"host_player": "Ada"');
    expect(text(reply)).toContain('"round": true');
    // One wire field says a round is on; the LAN list reads it as the room's state.
    expect(parseDiscoveryReply(reply)).toMatchObject({ hostName: 'Ada', inRound: true, state: 'playing' });
    const odd = 'GALEDISC1{"name": "x", "port": 1, "player_count": 0, "host_player": "\u202e", "round": "lost"}';
    expect(parseDiscoveryReply(bytes(odd))).toEqual({ name: 'x', port: 1, playerCount: 0 });
  });

  it('drops the host player name before cutting the room name to fit 512 bytes', () => {
    const name = 'é'.repeat(DISCOVERY.MAX_NAME_CHARS);
    const reply = buildRichReply({ name, port: 9000, playerCount: 1, hostName: 'ü'.repeat(40), inRound: false });
    expect(reply.length).toBeLessThanOrEqual(DISCOVERY.MAX_DATAGRAM_BYTES);
    const parsed = parseDiscoveryReply(reply);
    expect(parsed?.hostName).toBeUndefined();
    expect(parsed?.state).toBe('lobby');
    expect(buildRichReply({ name: 'Den', port: 1, playerCount: 0, hostName: 'ü'.repeat(40) }).length).toBeLessThan(512);
  });
});
