import { describe, expect, it } from 'vitest';
import {
  INTERNET_CODE_PREFIX,
  decodeInternetCode,
  encodeInternetCode,
  looksLikeInternetCode,
  newCodeSecret,
} from '../../../shared/rendezvous/internetCode';
import { CROCKFORD_BASE32 } from '../../../shared/roomCode/roomCodeFormat';

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
