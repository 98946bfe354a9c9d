import { describe, expect, it } from 'vitest';
import {
  INTERNET_CODE_PREFIX,
  DIRECT_CODE_CHARS,
  DHT_CODE_CHARS,
  decodeInternetCode,
  encodeDhtCode,
  encodeDirectCode,
  formatInternetInvite,
  encodeInternetCode,
  looksLikeInternetCode,
  newCodeSecret,
  readInternetCode,
} from '../../../shared/rendezvous/internetCode';
import { CROCKFORD_BASE32 } from '../../../shared/roomCode/roomCodeFormat';
import { checkDigit } from '../../../shared/roomCode/checkCharacter';

const digest = 'K7Q2M9XD4';

describe('internet codes', () => {
  it('round-trips a room id and secret, shaped NET-XXXX-XXXX-XXXX-XXXX', () => {
    const code = encodeInternetCode('7K2MQ9', digest);
    expect(code).toMatch(/^NET-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(code.startsWith(INTERNET_CODE_PREFIX)).toBe(true);
    expect(decodeInternetCode(code)).toEqual({ ok: true, code: { roomId: '7K2MQ9', secret: digest } });
  });

  it('draws a 45-bit secret from the random source, and refuses one that is not nine code characters', () => {
    expect(newCodeSecret((size) => Uint8Array.from({ length: size }, (_, i) => i * 33))).toMatch(
      /^[0-9A-HJKMNP-TV-Z]{9}$/,
    );
    expect(() => encodeInternetCode('7K2MQ9', 'short')).toThrow(RangeError);
    expect(() => encodeInternetCode('7K2MQ9', 'K7Q2M9XDU')).toThrow(RangeError);
  });

  it('reads lower case, spaces, dashes and the O/I/L lookalikes, with or without the prefix', () => {
    const code = encodeInternetCode('0111AB', digest);
    const body = code.slice(INTERNET_CODE_PREFIX.length);
    const typed = ` net ${body.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o').replace(/1/g, 'l')} `;
    expect(decodeInternetCode(typed)).toEqual(decodeInternetCode(code));
    expect(decodeInternetCode(body.replace(/-/g, ''))).toEqual(decodeInternetCode(code));
    expect(decodeInternetCode(code.replace(/1/g, 'I'))).toEqual(decodeInternetCode(code));
  });

  it('refuses every single mistyped character and every swap of neighbours', () => {
    const bare = encodeInternetCode('Z9Y8X7', digest).slice(4).replace(/-/g, '');
    for (let i = 0; i < bare.length; i++) {
      for (const ch of CROCKFORD_BASE32) {
        if (ch === bare[i]) continue;
        const typo = bare.slice(0, i) + ch + bare.slice(i + 1);
        expect(decodeInternetCode(typo)).toMatchObject({ ok: false, reason: expect.stringMatching(/mistyped/) });
      }
      if (i + 1 < bare.length && bare[i] !== bare[i + 1]) {
        const swapped = bare.slice(0, i) + bare[i + 1] + bare[i] + bare.slice(i + 2);
        expect(decodeInternetCode(swapped).ok).toBe(false);
      }
    }
  });

  it('refuses wrong lengths, foreign characters and oversized input with a reason', () => {
    const code = encodeInternetCode('7K2MQ9', digest);
    expect(decodeInternetCode(code.slice(0, -1))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/16, 21 or 63 characters/),
    });
    expect(decodeInternetCode(`${code}0`)).toMatchObject({ ok: false });
    expect(decodeInternetCode(code.replace(/-([0-9A-Z])/, '-U'))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/“U”/),
    });
    expect(decodeInternetCode('x'.repeat(1000))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/too long/),
    });
    expect(() => encodeInternetCode('7K2MQ', digest)).toThrow(RangeError);
    expect(() => encodeInternetCode('7K2MQU', digest)).toThrow(RangeError);
  });

  it('recognizes internet codes in the join field without taking LAN codes that start with NET', () => {
    expect(looksLikeInternetCode('NET-')).toBe(true);
    expect(looksLikeInternetCode(' net 7k2m')).toBe(true);
    expect(looksLikeInternetCode(encodeInternetCode('7K2MQ9', digest).replace(/-/g, ''))).toBe(true);
    expect(looksLikeInternetCode('NETAB-CDEFG')).toBe(false);
    expect(looksLikeInternetCode('7K2MQ-9XA4H')).toBe(false);
  });

  it('says which kind a code is: a rendezvous room id, or a direct room’s address and port', () => {
    expect(readInternetCode(encodeInternetCode('7K2MQ9', digest))).toEqual({
      ok: true,
      invite: { kind: 'rendezvous', code: { roomId: '7K2MQ9', secret: digest } },
    });
    for (const [address, port] of [
      ['203.0.113.7', 41641],
      ['255.255.255.255', 65535],
      ['0.0.0.0', 1],
      ['127.0.0.1', 5000],
    ] as const) {
      const code = encodeDirectCode(address, port, digest);
      expect(code).toMatch(/^NET-D[0-9A-Z]{3}(-[0-9A-Z]{4}){4}-[0-9A-Z]$/);
      expect(code.slice(4).replace(/-/g, '')).toHaveLength(DIRECT_CODE_CHARS);
      expect(looksLikeInternetCode(code)).toBe(true);
      expect(readInternetCode(code.toLowerCase())).toEqual({
        ok: true,
        invite: { kind: 'direct', code: { address, port, secret: digest } },
      });
      // The rendezvous reader refuses it in words instead of reading a room id into it.
      expect(decodeInternetCode(code)).toMatchObject({ ok: false, reason: expect.stringMatching(/direct/) });
    }
  });

  it('refuses a direct code with a typo, a wrong length or bits past 48, and refuses to encode a bad address', () => {
    const bare = encodeDirectCode('198.51.100.20', 3478, digest).slice(4).replace(/-/g, '');
    for (let i = 1; i < bare.length; i++) {
      const ch = bare[i] === '0' ? '1' : '0';
      expect(readInternetCode(bare.slice(0, i) + ch + bare.slice(i + 1)).ok).toBe(false);
    }
    expect(readInternetCode(bare.slice(0, -1))).toMatchObject({ ok: false, reason: expect.stringMatching(/21/) });
    // The top two bits of the address characters are zero in every real code: set, the code names no address.
    expect(encodeDirectCode('255.255.255.255', 65535, digest).slice(4, 6)).toBe('D7');
    const body = `DZ${bare.slice(2, -1)}`;
    const digits = Array.from(body, (ch) => CROCKFORD_BASE32.indexOf(ch));
    const forged = body + CROCKFORD_BASE32[checkDigit(digits, CROCKFORD_BASE32.length)];
    expect(readInternetCode(forged)).toMatchObject({ ok: false, reason: expect.stringMatching(/no address/) });
    expect(() => encodeDirectCode('203.0.113', 1, digest)).toThrow(RangeError);
    expect(() => encodeDirectCode('203.0.113.7', 0, digest)).toThrow(RangeError);
    expect(() => encodeDirectCode('203.0.113.7', 70000, digest)).toThrow(RangeError);
    expect(() => encodeDirectCode('203.0.113.7', 1, 'short')).toThrow(RangeError);
  });

  it('round-trips a DHT room’s public key and secret in the same NET- groups of four', () => {
    for (const publicKey of ['00'.repeat(32), 'ff'.repeat(32), '0123456789abcdef'.repeat(4)]) {
      const code = encodeDhtCode(publicKey.toUpperCase(), digest);
      expect(code).toMatch(/^NET-K[0-9A-Z]{3}(-[0-9A-Z]{4}){14}-[0-9A-Z]{3}$/);
      expect(code.slice(4).replace(/-/g, '')).toHaveLength(DHT_CODE_CHARS);
      expect(looksLikeInternetCode(code)).toBe(true);
      const read = readInternetCode(` ${code.toLowerCase().replace(/-/g, ' ')} `);
      expect(read).toEqual({ ok: true, invite: { kind: 'dht', code: { publicKey, secret: digest } } });
      if (read.ok) expect(formatInternetInvite(read.invite)).toBe(code);
      expect(decodeInternetCode(code)).toMatchObject({ ok: false, reason: expect.stringMatching(/dht/) });
    }
  });

  it('refuses a DHT code with a wrong check character, a wrong length, bad characters or a key past 256 bits', () => {
    const code = encodeDhtCode('ab'.repeat(32), digest);
    const bare = code.slice(4).replace(/-/g, '');
    for (let i = 1; i < bare.length; i++) {
      const ch = bare[i] === '0' ? '1' : '0';
      expect(readInternetCode(bare.slice(0, i) + ch + bare.slice(i + 1))).toMatchObject({ ok: false });
    }
    expect(readInternetCode(bare.slice(0, -1))).toMatchObject({ ok: false, reason: expect.stringMatching(/63/) });
    expect(readInternetCode(`${bare}0`)).toMatchObject({ ok: false, reason: expect.stringMatching(/64/) });
    expect(readInternetCode(`${bare.slice(0, 20)}U${bare.slice(21)}`)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/“U”/),
    });
    expect(readInternetCode(`NET-${bare}${'-'.repeat(40)}`)).toMatchObject({ ok: false, reason: /too long/ });
    // The key's top four bits are zero in every real code: set, the code names no key.
    const body = `KZ${bare.slice(2, -1)}`;
    const forged = body + CROCKFORD_BASE32[checkDigit(Array.from(body, (ch) => CROCKFORD_BASE32.indexOf(ch)), 32)];
    expect(readInternetCode(forged)).toMatchObject({ ok: false, reason: expect.stringMatching(/no key/) });
    expect(() => encodeDhtCode('ab'.repeat(31), digest)).toThrow(RangeError);
    expect(() => encodeDhtCode('zz'.repeat(32), digest)).toThrow(RangeError);
    expect(() => encodeDhtCode('ab'.repeat(32), 'short')).toThrow(RangeError);
  });
});
