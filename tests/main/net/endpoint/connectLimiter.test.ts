import { describe, expect, it } from 'vitest';
import {
  ConnectLimiter,
  DEFAULT_CONNECT_LIMITS,
  ipv4Value,
  resolveConnectLimits,
} from '../../../../main/net/endpoint/connectLimiter';
import { SourceBuckets } from '../../../../main/net/endpoint/sourceBuckets';

const fixedSeed = () => new Uint8Array(8).fill(3);

describe('ipv4Value', () => {
  it('reads dotted quads, also after a prefix offset, and refuses everything else', () => {
    expect(ipv4Value('127.0.0.1')).toBe(0x7f000001);
    expect(ipv4Value('255.255.255.255')).toBe(0xffffffff); // a value only, never sent
    expect(ipv4Value('::ffff:10.1.2.3', 7)).toBe(0x0a010203);
    for (const bad of ['', '1.2.3', '1.2.3.4.5', '256.1.1.1', '1..2.3', '1.2.3.4 ', 'a.b.c.d', '1.2.3.0004', '::1'])
      expect(ipv4Value(bad), bad).toBe(-1);
  });
});

describe('SourceBuckets', () => {
  it('gives a key its burst, then refills at the rate', () => {
    const buckets = new SourceBuckets(64, { rate: 2, burst: 3 }, 1);
    expect([1, 2, 3, 4].map(() => buckets.take(9, 100))).toEqual([true, true, true, false]);
    expect(buckets.take(9, 100.4)).toBe(false); // 0.8 of a token
    expect(buckets.take(9, 100.5)).toBe(true);
    expect(buckets.take(10, 100.5)).toBe(true); // another key has its own bucket
  });

  it('keys that collide while busy share a bucket; a bucket that refilled is taken over', () => {
    const buckets = new SourceBuckets(2, { rate: 1, burst: 2 }, 0); // two slots: keys 1, 2 fill them, 3 collides
    expect(buckets.take(1, 0) && buckets.take(2, 0)).toBe(true);
    expect(buckets.take(3, 0)).toBe(true); // shares a busy slot (1 token left there)
    const left = [1, 2, 3].map((key) => buckets.take(key, 0));
    expect(left.filter(Boolean)).toHaveLength(1); // the other busy slot's last token; the shared one is empty
    expect(buckets.take(4, 10)).toBe(true); // both refilled: 4 takes one over
  });

  it('refuses a table size that is not a power of two, and bad limits', () => {
    expect(() => new SourceBuckets(3, { rate: 1, burst: 1 }, 0)).toThrow(/power of two/);
    expect(() => new SourceBuckets(4, { rate: 0, burst: 1 }, 0)).toThrow(/rate/);
    expect(() => new SourceBuckets(4, { rate: 1, burst: 0.5 }, 0)).toThrow(/burst/);
  });
});

describe('ConnectLimiter', () => {
  const limits = { perSource: { rate: 1, burst: 4 }, perPrefix: { rate: 1, burst: 10 } };

  it('limits one address, and its /24 only with what the address was allowed', () => {
    const time = { now: 50 };
    const limiter = new ConnectLimiter(limits, () => time.now, fixedSeed);
    const results = Array.from({ length: 20 }, () => limiter.check('10.0.0.7'));
    expect(results.slice(0, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(new Set(results.slice(4))).toEqual(new Set(['source-limited']));
    // The noisy address spent 4 of its /24's 10: a neighbour still gets in.
    expect(limiter.check('10.0.0.8')).toBeUndefined();
    expect(limiter.check('10.0.1.7')).toBeUndefined();
  });

  it('many addresses of one /24 hit its limit; another /24 and IPv6 sources are counted apart', () => {
    const limiter = new ConnectLimiter(limits, () => 0, fixedSeed);
    const results = Array.from({ length: 30 }, (_, i) => limiter.check(`192.168.1.${i + 1}`));
    expect(results.filter((r) => r === undefined)).toHaveLength(10);
    expect(results.slice(10).every((r) => r === 'prefix-limited')).toBe(true);
    expect(limiter.check('192.168.2.1')).toBeUndefined();
    expect(limiter.check('::ffff:192.168.1.200')).toBe('prefix-limited'); // the same /24, mapped
    expect(limiter.check('fe80::1')).toBeUndefined();
  });

  it('false turns the limits off; options are checked', () => {
    const off = new ConnectLimiter(false, () => 0);
    for (let i = 0; i < 1000; i++) expect(off.check('10.0.0.1')).toBeUndefined();
    expect(resolveConnectLimits(undefined)).toEqual(DEFAULT_CONNECT_LIMITS);
    expect(resolveConnectLimits({ perSource: { rate: 2, burst: 2 } })).toEqual({
      perSource: { rate: 2, burst: 2 },
      perPrefix: DEFAULT_CONNECT_LIMITS.perPrefix,
    });
    expect(() => resolveConnectLimits({ perPrefix: { rate: -1, burst: 2 } })).toThrow(/connectLimits.perPrefix.rate/);
  });
});
