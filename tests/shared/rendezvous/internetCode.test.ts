import { describe, expect, it } from 'vitest';
import {
  INTERNET_CODE_PREFIX,
  decodeInternetCode,
  encodeInternetCode,
  keyCheckOf,
  looksLikeInternetCode,
} from '../../../shared/rendezvous/internetCode';
import { CROCKFORD_BASE32 } from '../../../shared/roomCode/roomCodeFormat';

const digest = Uint8Array.from([0xde, 0xad, 0xbe, 0xef, 0x01, 0x23, 0x45, 0x67]);

describe('internet codes', () => {
  it('round-trips a room id and key check, shaped NET-XXXX-XXXX-XXXX-XXXX', () => {
    const code = encodeInternetCode('7K2MQ9', digest);
    expect(code).toMatch(/^NET-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(code.startsWith(INTERNET_CODE_PREFIX)).toBe(true);
    expect(decodeInternetCode(code)).toEqual({ ok: true, code: { roomId: '7K2MQ9', keyCheck: keyCheckOf(digest) } });
  });

  it('takes the first 45 bits of the digest as the key check', () => {
    // 0xdeadbeef0123 >> 3 = 45 bits; in base32, most significant first.
    const bits = 0xdeadbeef0123n >> 3n;
    let expected = '';
    for (let i = 8; i >= 0; i--) expected += CROCKFORD_BASE32[Number((bits >> BigInt(i * 5)) & 31n)];
    expect(keyCheckOf(digest)).toBe(expected);
    expect(() => keyCheckOf(new Uint8Array(5))).toThrow(RangeError);
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
      reason: expect.stringMatching(/16 characters/),
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
});
