import { describe, expect, it } from 'vitest';
import {
  CONNECT_COOKIE,
  ConnectCookies,
  decodeCookie,
  encodeCookie,
} from '../../../../../main/net/native/handshake/connectCookie';

/** A controllable clock plus counting, distinct secrets. */
function setup(start = 1000, slotSeconds?: number) {
  const time = { now: start };
  let drawn = 0;
  const cookies = new ConnectCookies({
    clock: () => time.now,
    slotSeconds,
    randomSecret: () => new Uint8Array(32).fill(++drawn),
  });
  return { time, cookies, drawn: () => drawn };
}

const ADDR = '127.0.0.1';
const BIND = '{"version":1,"mtu":1200,"codec":"json"}';

describe('ConnectCookies', () => {
  it('issues 20 bytes: big-endian slot then MAC, and verifies them', () => {
    const { cookies } = setup(1003); // slot 200 with 5 s slots
    const cookie = cookies.issue(ADDR, 4000, BIND);
    expect(cookie).toHaveLength(CONNECT_COOKIE.length);
    expect(Array.from(cookie.subarray(0, 4))).toEqual([0, 0, 0, 200]);
    expect(cookies.verify(cookie, ADDR, 4000, BIND)).toBe(true);
    expect(cookies.issue(ADDR, 4000, BIND)).toEqual(cookie); // same slot, same secret: deterministic
  });

  it('rejects a different address, port or bind string', () => {
    const { cookies } = setup();
    const cookie = cookies.issue(ADDR, 4000, BIND);
    expect(cookies.verify(cookie, '127.0.0.2', 4000, BIND)).toBe(false);
    expect(cookies.verify(cookie, '::ffff:127.0.0.1', 4000, BIND)).toBe(false);
    expect(cookies.verify(cookie, ADDR, 4001, BIND)).toBe(false);
    expect(cookies.verify(cookie, ADDR, 4000, BIND + ' ')).toBe(false);
    expect(cookies.verify(cookie, ADDR, 4000, '')).toBe(false);
    // Field boundaries are unambiguous: moving text between address and bind changes the MAC.
    const a = cookies.issue('127.0.0.1', 1, 'x');
    expect(cookies.verify(a, '127.0.0.', 1, '1x')).toBe(false);
  });

  it('rejects any flipped bit, including in the slot field', () => {
    const { cookies, time } = setup();
    cookies.issue(ADDR, 4000, BIND); // previous slot has a secret too
    time.now += 5;
    const cookie = cookies.issue(ADDR, 4000, BIND);
    for (let byte = 0; byte < cookie.length; byte++) {
      for (const bit of [0x01, 0x80]) {
        const forged = Uint8Array.from(cookie);
        forged[byte] = (forged[byte] as number) ^ bit;
        expect(cookies.verify(forged, ADDR, 4000, BIND)).toBe(false);
      }
    }
    const relabelled = Uint8Array.from(cookie);
    relabelled[3] = (relabelled[3] as number) - 1; // claims the previous slot
    expect(cookies.verify(relabelled, ADDR, 4000, BIND)).toBe(false);
  });

  it('authenticates the slot field even when two slots share a secret', () => {
    const time = { now: 1000 };
    const cookies = new ConnectCookies({ clock: () => time.now, randomSecret: () => new Uint8Array(32).fill(7) });
    cookies.issue(ADDR, 4000, BIND);
    time.now += 5;
    const cookie = cookies.issue(ADDR, 4000, BIND);
    expect(cookies.verify(cookie, ADDR, 4000, BIND)).toBe(true);
    const relabelled = Uint8Array.from(cookie);
    relabelled[3] = (relabelled[3] as number) - 1;
    expect(cookies.verify(relabelled, ADDR, 4000, BIND)).toBe(false);
  });

  it('accepts a cookie in its slot and the next, and never after (2 slots with an injected clock)', () => {
    const { cookies, time } = setup(1000);
    const cookie = cookies.issue(ADDR, 4000, BIND);
    time.now = 1004.999;
    expect(cookies.verify(cookie, ADDR, 4000, BIND)).toBe(true);
    time.now = 1005; // next slot: still valid
    expect(cookies.verify(cookie, ADDR, 4000, BIND)).toBe(true);
    time.now = 1009.999;
    expect(cookies.verify(cookie, ADDR, 4000, BIND)).toBe(true);
    time.now = 1010; // two slots later: its secret is gone
    expect(cookies.verify(cookie, ADDR, 4000, BIND)).toBe(false);
    time.now = 1005; // going back does not resurrect a discarded secret
    expect(cookies.verify(cookie, ADDR, 4000, BIND)).toBe(false);
  });

  it('rotates secrets lazily: one per slot, only when issuing', () => {
    const { cookies, time, drawn } = setup(0, 10);
    expect(cookies.verify(new Uint8Array(20), ADDR, 1, BIND)).toBe(false);
    expect(drawn()).toBe(0);
    const first = cookies.issue(ADDR, 1, BIND);
    cookies.issue('10.0.0.1', 2, BIND);
    expect(drawn()).toBe(1);
    time.now = 10;
    const second = cookies.issue(ADDR, 1, BIND);
    expect(drawn()).toBe(2);
    expect(second.subarray(4)).not.toEqual(first.subarray(4));
    expect(cookies.verify(first, ADDR, 1, BIND)).toBe(true);
    expect(cookies.verify(second, ADDR, 1, BIND)).toBe(true);
  });

  it('does not accept cookies from another instance with a different secret', () => {
    const clock = () => 500;
    const a = new ConnectCookies({ clock });
    const b = new ConnectCookies({ clock });
    const cookie = a.issue(ADDR, 4000, BIND);
    b.issue(ADDR, 4000, BIND); // b has a secret for the same slot, just not a's
    expect(a.verify(cookie, ADDR, 4000, BIND)).toBe(true);
    expect(b.verify(cookie, ADDR, 4000, BIND)).toBe(false);
  });

  it('never throws on garbage input to verify', () => {
    const { cookies } = setup();
    const good = cookies.issue(ADDR, 4000, BIND);
    const junk: unknown[] = [undefined, null, 0, 'cookie', {}, [], new Uint8Array(0), new Uint8Array(19)];
    junk.push(new Uint8Array(21), new Uint8Array(20).fill(0xff), new Uint16Array(10), Buffer.alloc(20));
    const hostile = new Proxy(new Uint8Array(20), {
      get() {
        throw new Error('boom');
      },
    });
    junk.push(hostile);
    for (const cookie of junk) {
      expect(cookies.verify(cookie as Uint8Array, ADDR, 4000, BIND)).toBe(false);
    }
    for (const port of [-1, 65536, 1.5, Number.NaN, '4000', undefined]) {
      expect(cookies.verify(good, ADDR, port as number, BIND)).toBe(false);
    }
    for (const text of [undefined, null, 42, {}]) {
      expect(cookies.verify(good, text as string, 4000, BIND)).toBe(false);
      expect(cookies.verify(good, ADDR, 4000, text as string)).toBe(false);
    }
    const broken = new ConnectCookies({
      clock: () => {
        throw new Error('clock broke');
      },
    });
    expect(broken.verify(good, ADDR, 4000, BIND)).toBe(false);
    expect(new ConnectCookies({ clock: () => Number.NaN }).verify(good, ADDR, 4000, BIND)).toBe(false);
  });

  it('rejects bad arguments to issue and bad options with clear errors', () => {
    const { cookies } = setup();
    expect(() => cookies.issue(ADDR, 70000, BIND)).toThrow(RangeError);
    expect(() => cookies.issue(ADDR, -1, BIND)).toThrow(RangeError);
    expect(() => new ConnectCookies({ clock: () => Number.NaN }).issue(ADDR, 1, BIND)).toThrow(RangeError);
    const weak = new ConnectCookies({ clock: () => 0, randomSecret: () => new Uint8Array(8) });
    expect(() => weak.issue(ADDR, 1, BIND)).toThrow(RangeError);
    expect(() => new ConnectCookies({ clock: () => 0, slotSeconds: 0 })).toThrow(RangeError);
  });
});

describe('encodeCookie / decodeCookie', () => {
  it('round-trips a cookie as 27 base64url characters', () => {
    const cookie = setup().cookies.issue(ADDR, 4000, BIND);
    const text = encodeCookie(cookie);
    expect(text).toMatch(/^[A-Za-z0-9_-]{27}$/);
    expect(decodeCookie(text)).toEqual(cookie);
    const all = Uint8Array.from({ length: 20 }, (_, i) => 0xff - i * 3);
    expect(decodeCookie(encodeCookie(all))).toEqual(all);
  });

  it('returns undefined for non-strings, wrong lengths, bad characters and non-canonical text', () => {
    const text = encodeCookie(new Uint8Array(20).fill(0xfb));
    for (const bad of [undefined, null, 27, {}, ['x'], new Uint8Array(20)]) expect(decodeCookie(bad)).toBeUndefined();
    expect(decodeCookie('')).toBeUndefined();
    expect(decodeCookie(text.slice(1))).toBeUndefined();
    expect(decodeCookie(text + 'A')).toBeUndefined();
    expect(decodeCookie(text + '=')).toBeUndefined();
    expect(decodeCookie(encodeCookie(new Uint8Array(21)))).toBeUndefined();
    expect(decodeCookie('+' + text.slice(1))).toBeUndefined(); // standard base64, not url-safe
    expect(decodeCookie('/' + text.slice(1))).toBeUndefined();
    expect(decodeCookie(' ' + text.slice(1))).toBeUndefined();
    expect(decodeCookie(text.slice(0, 26) + '\n')).toBeUndefined();
    // The last character carries 2 spare bits: only the spelling with them zero is accepted.
    const last = text.at(-1) as string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sloppy = text.slice(0, 26) + (alphabet[alphabet.indexOf(last) + 1] as string);
    expect(Buffer.from(sloppy, 'base64url')).toEqual(Buffer.from(text, 'base64url'));
    expect(decodeCookie(sloppy)).toBeUndefined();
  });
});
