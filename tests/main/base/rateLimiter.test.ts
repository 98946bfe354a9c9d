import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../../main/base/rateLimiter';

describe('createRateLimiter', () => {
  it('allows a burst, then refills at the configured rate', () => {
    let now = 0;
    const limiter = createRateLimiter({ burst: 3, perSecond: 2 }, { now: () => now });
    expect([1, 2, 3, 4].map(() => limiter.allow('a'))).toEqual([true, true, true, false]);
    now = 400; // 0.8 tokens
    expect(limiter.allow('a')).toBe(false);
    now = 500; // 1.0 token
    expect(limiter.allow('a')).toBe(true);
    expect(limiter.allow('a')).toBe(false);
    now = 100_000; // refills up to the burst only
    expect([1, 2, 3, 4].map(() => limiter.allow('a'))).toEqual([true, true, true, false]);
  });

  it('keeps separate budgets per key', () => {
    const limiter = createRateLimiter({ burst: 1, perSecond: 1 }, { now: () => 0 });
    expect(limiter.allow('a')).toBe(true);
    expect(limiter.allow('a')).toBe(false);
    expect(limiter.allow('b')).toBe(true);
  });

  it('bounds its table by forgetting the least recently used key', () => {
    const limiter = createRateLimiter({ burst: 1, perSecond: 0 }, { now: () => 0, maxKeys: 3 });
    for (const key of ['a', 'b', 'c']) limiter.allow(key);
    limiter.allow('a'); // refresh a
    limiter.allow('d'); // evicts b
    expect(limiter.size).toBe(3);
    expect(limiter.allow('a')).toBe(false); // remembered, empty
    expect(limiter.allow('b')).toBe(true); // forgotten, so a fresh bucket
  });

  it('tolerates a clock going backwards', () => {
    let now = 1000;
    const limiter = createRateLimiter({ burst: 1, perSecond: 1 }, { now: () => now });
    expect(limiter.allow('a')).toBe(true);
    now = 0;
    expect(limiter.allow('a')).toBe(false);
  });

  it('counts refusals, and a forgotten key starts with a full bucket', () => {
    const limiter = createRateLimiter<number>({ burst: 2, perSecond: 0 }, { now: () => 0 });
    expect([1, 1, 1, 1].map((key) => limiter.allow(key))).toEqual([true, true, false, false]);
    expect(limiter.refused).toBe(2);
    limiter.forget(1);
    expect(limiter.size).toBe(0);
    expect(limiter.allow(1)).toBe(true);
  });

  it('refuses limits that would never allow anything or never make sense', () => {
    const now = () => 0;
    expect(() => createRateLimiter({ burst: 0, perSecond: 1 }, { now })).toThrow(/burst/);
    expect(() => createRateLimiter({ burst: Number.NaN, perSecond: 1 }, { now })).toThrow(/burst/);
    expect(() => createRateLimiter({ burst: 1, perSecond: -1 }, { now })).toThrow(/perSecond/);
    expect(() => createRateLimiter({ burst: 1, perSecond: Infinity }, { now })).toThrow(/perSecond/);
  });
});
