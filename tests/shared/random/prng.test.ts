import { describe, expect, it } from 'vitest';
import { nextUint32, SeededRandom, seedState } from '../../../shared/random/prng';

describe('SeededRandom', () => {
  it('repeats exactly for the same seed and differs for another', () => {
    const a = new SeededRandom(42);
    const b = new SeededRandom(42);
    const c = new SeededRandom(43);
    const seqA = Array.from({ length: 20 }, () => a.nextUint32());
    expect(Array.from({ length: 20 }, () => b.nextUint32())).toEqual(seqA);
    expect(Array.from({ length: 20 }, () => c.nextUint32())).not.toEqual(seqA);
  });

  it('continues from a stored state', () => {
    const a = new SeededRandom(5);
    a.next();
    a.next();
    const resumed = new SeededRandom(a.state);
    expect(resumed.next()).toBe(a.next());
  });

  it('matches the pure step function', () => {
    const r = new SeededRandom(9);
    const draw = nextUint32(seedState(9));
    expect(r.nextUint32()).toBe(draw.value);
    expect(r.state).toBe(draw.state);
  });

  it('stays in range and is roughly uniform', () => {
    const r = new SeededRandom(1);
    const buckets = new Array<number>(10).fill(0);
    const outOfRange: number[] = [];
    for (let i = 0; i < 10_000; i += 1) {
      const v = r.next();
      if (!(v >= 0 && v < 1)) outOfRange.push(v);
      buckets[Math.floor(v * 10)] = (buckets[Math.floor(v * 10)] ?? 0) + 1;
      const n = r.int(7);
      if (!(Number.isInteger(n) && n >= 0 && n < 7)) outOfRange.push(n);
      const f = r.range(-2, 3);
      if (!(f >= -2 && f < 3)) outOfRange.push(f);
    }
    expect(outOfRange).toEqual([]);
    for (const count of buckets) expect(count).toBeGreaterThan(800);
  });

  it('rejects bad seeds and bounds', () => {
    expect(() => new SeededRandom(Number.NaN)).toThrow(RangeError);
    expect(() => new SeededRandom(1).int(0)).toThrow(RangeError);
    expect(() => new SeededRandom(1).int(2.5)).toThrow(RangeError);
    expect(seedState(-1)).toBe(2 ** 32 - 1);
    expect(seedState(3.9)).toBe(3);
  });
});
