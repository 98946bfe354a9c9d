import { describe, expect, it } from 'vitest';
import { upperBound } from '../../../shared/net/sortedSearch';
import { SeededRandom } from '../../../shared/random/prng';

function linearUpperBound(sorted: readonly number[], value: number): number {
  const i = sorted.findIndex((v) => v > value);
  return i < 0 ? sorted.length : i;
}

describe('upperBound', () => {
  it('handles empty arrays, duplicates and the ends', () => {
    expect(upperBound([], 1)).toBe(0);
    expect(upperBound([1, 2, 2, 2, 3], 2)).toBe(4);
    expect(upperBound([1, 2, 3], 0)).toBe(0);
    expect(upperBound([1, 2, 3], 3)).toBe(3);
    expect(upperBound([1, 2, 3], 2.5)).toBe(2);
  });

  it('agrees with a linear scan on seeded random data', () => {
    const rng = new SeededRandom(2024);
    const mismatches: { sorted: number[]; probeValue: number }[] = [];
    for (let round = 0; round < 300; round += 1) {
      const sorted = Array.from({ length: rng.int(40) }, () => rng.int(50)).sort((p, q) => p - q);
      for (let probe = 0; probe < 20; probe += 1) {
        const value = rng.range(-5, 55);
        const onElement = sorted[rng.int(Math.max(1, sorted.length))] ?? 0;
        for (const probeValue of [value, onElement]) {
          if (upperBound(sorted, probeValue) !== linearUpperBound(sorted, probeValue)) {
            mismatches.push({ sorted, probeValue });
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
  });
});
