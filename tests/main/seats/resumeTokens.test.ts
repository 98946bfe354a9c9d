import { describe, expect, it } from 'vitest';
import {
  RESUME_TOKEN,
  checkResumeToken,
  decodeResumeToken,
  encodeResumeToken,
} from '../../../main/seats/resumeToken';
import { RESUME_TOKEN_MAX_AGE_MS, ResumeTokens } from '../../../main/seats/resumeTokens';

/** Deterministic "random" bytes: a counter, so two rooms built from two counters differ exactly as real ones would. */
function countingBytes(start: number): (n: number) => Buffer {
  let next = start;
  return (n) => Buffer.from(Array.from({ length: n }, () => next++ & 0xff));
}

function room(start = 1, now = { ms: 50_000 }) {
  const tokens = new ResumeTokens({ now: () => now.ms, random: countingBytes(start) });
  return { tokens, now };
}

/** Flips one bit of a token's bytes at `index` and re-encodes it. */
function flip(token: string, index: number): string {
  const bytes = Buffer.from(token, 'base64url');
  bytes[index] = (bytes[index] ?? 0) ^ 0x01;
  return bytes.toString('base64url');
}

describe('resume tokens', () => {
  it('gives a seat back once, to the address it was issued to', () => {
    const { tokens } = room();
    const token = tokens.issue(3, '192.168.1.20');
    expect(token).toMatch(new RegExp(`^[A-Za-z0-9_-]{${RESUME_TOKEN.CHARS}}$`));
    expect(decodeResumeToken(token)?.seat).toBe(3);
    expect(tokens.redeem(token, '192.168.1.20')).toEqual({ ok: true, seat: 3 });
    // Spent: the same token again is a replay.
    expect(tokens.redeem(token, '192.168.1.20')).toEqual({ ok: false, reason: 'no-seat' });
    const next = tokens.issue(3, '192.168.1.20');
    expect(tokens.redeem(token, '192.168.1.20')).toEqual({ ok: false, reason: 'used' });
    expect(tokens.redeem(next, '192.168.1.20')).toEqual({ ok: true, seat: 3 });
  });

  it('refuses a token of another room, even for a seat number this room has', () => {
    const a = room(1).tokens;
    const b = room(101).tokens;
    a.issue(2, '10.0.0.5');
    const fromB = b.issue(2, '10.0.0.5');
    expect(a.redeem(fromB, '10.0.0.5')).toEqual({ ok: false, reason: 'other-room' });
  });

  it('refuses an expired token, and one dated in the future', () => {
    const { tokens, now } = room();
    const token = tokens.issue(1, '10.0.0.5');
    now.ms += RESUME_TOKEN_MAX_AGE_MS + 1000;
    expect(tokens.redeem(token, '10.0.0.5')).toEqual({ ok: false, reason: 'expired' });
    const short = new ResumeTokens({ now: () => now.ms, random: countingBytes(7), maxAgeMs: 30_000 });
    const later = short.issue(1, '10.0.0.5');
    now.ms += 29_000;
    expect(short.redeem(later, '10.0.0.5')).toEqual({ ok: true, seat: 1 });
    const again = short.issue(1, '10.0.0.5');
    now.ms -= 5_000;
    expect(short.redeem(again, '10.0.0.5')).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a token replayed from another address, and leaves the seat’s token good for its owner', () => {
    const { tokens } = room();
    const token = tokens.issue(4, '192.168.1.20');
    expect(tokens.redeem(token, '192.168.1.66')).toEqual({ ok: false, reason: 'other-address' });
    expect(tokens.redeem(token, '192.168.1.20')).toEqual({ ok: true, seat: 4 });
  });

  it('refuses forged tokens: any bit changed, another seat written in, a made-up tag', () => {
    const { tokens } = room();
    const token = tokens.issue(5, '10.0.0.5');
    tokens.issue(6, '10.0.0.5');
    // Seat bytes (9–10), time (11–14), nonce (15–30), tag (31–46): each change breaks the tag.
    for (const index of [9, 10, 11, 14, 15, 30, 31, 46]) {
      expect(tokens.redeem(flip(token, index), '10.0.0.5')).toEqual({ ok: false, reason: 'forged' });
    }
    // A whole token built with a guessed key for the seat next door.
    const fields = decodeResumeToken(token)!;
    const guessed = encodeResumeToken(Buffer.alloc(32, 7), { ...fields, seat: 6 });
    expect(tokens.redeem(guessed, '10.0.0.5')).toEqual({ ok: false, reason: 'forged' });
    // The untouched token still works: refusals spend nothing.
    expect(tokens.redeem(token, '10.0.0.5')).toEqual({ ok: true, seat: 5 });
  });

  it('calls anything that is not a token malformed, without throwing', () => {
    const { tokens } = room();
    const token = tokens.issue(1, '10.0.0.5');
    const other = Buffer.from(token, 'base64url');
    other[0] = 2;
    for (const bad of [
      undefined,
      null,
      42,
      {},
      '',
      'x'.repeat(63),
      `${token}A`,
      token.slice(1),
      '!'.repeat(63),
      other.toString('base64url'),
    ]) {
      expect(tokens.redeem(bad, '10.0.0.5')).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('forgets a revoked seat', () => {
    const { tokens } = room();
    const token = tokens.issue(8, '10.0.0.5');
    tokens.revoke(8);
    expect(tokens.redeem(token, '10.0.0.5')).toEqual({ ok: false, reason: 'no-seat' });
  });

  it('uses real randomness by default: two rooms never share an id or a key', () => {
    const now = () => 1_000;
    const a = new ResumeTokens({ now });
    const b = new ResumeTokens({ now });
    const ta = a.issue(1, '10.0.0.5');
    expect(decodeResumeToken(ta)!.roomId.equals(decodeResumeToken(b.issue(1, '10.0.0.5'))!.roomId)).toBe(false);
    expect(b.redeem(ta, '10.0.0.5')).toEqual({ ok: false, reason: 'other-room' });
  });

  it('checks a token without an issuer, against any seat table (the pure verifier)', () => {
    const key = Buffer.alloc(32, 1);
    const roomId = Buffer.alloc(8, 2);
    const nonce = Buffer.alloc(16, 3);
    const token = encodeResumeToken(key, { roomId, seat: 9, issuedAtSec: 10, nonce });
    const check = { roomId, key, nowMs: 12_000, maxAgeMs: 5_000, address: '10.0.0.5' };
    expect(checkResumeToken(token, { ...check, seatOf: () => ({ nonce, address: '10.0.0.5' }) })).toEqual({
      ok: true,
      seat: 9,
    });
    expect(checkResumeToken(token, { ...check, seatOf: () => undefined })).toEqual({ ok: false, reason: 'no-seat' });
    expect(
      checkResumeToken(token, { ...check, nowMs: 15_001, seatOf: () => ({ nonce, address: '10.0.0.5' }) }),
    ).toEqual({ ok: false, reason: 'expired' });
    expect(() => encodeResumeToken(key, { roomId, seat: 70_000, issuedAtSec: 0, nonce })).toThrow(RangeError);
    expect(() => encodeResumeToken(key, { roomId: Buffer.alloc(4), seat: 1, issuedAtSec: 0, nonce })).toThrow(
      RangeError,
    );
  });
});
