import { describe, expect, it } from 'vitest';
import { formatRatio, perRoundRatios, rotated, roundsRow } from '../../bench/rounds';

describe('perRoundRatios', () => {
  it('takes the median of each round’s ratio, not the ratio of the medians', () => {
    // Round 3's baseline slice was slow: the ratio of medians would read 2×, the per-round ratios all but one 1.5×.
    const subject = [150, 150, 150, 150, 150];
    const baseline = [100, 100, 10, 100, 100];
    expect(perRoundRatios(subject, baseline)).toEqual({ median: 1.5, min: 1.5, max: 15, rounds: 5 });
  });

  it('leaves out rounds missing either figure or with a zero baseline', () => {
    expect(perRoundRatios([2, Number.NaN, 3, 4], [1, 1, 0])).toEqual({ median: 2, min: 2, max: 2, rounds: 1 });
    expect(perRoundRatios([], []).rounds).toBe(0);
    expect(formatRatio(perRoundRatios([], []))).toBe('—');
  });

  it('prints the median with its range and round count', () => {
    expect(formatRatio({ median: 1.234, min: 0.98, max: 1.4, rounds: 5 })).toBe('1.23× (0.98–1.40, 5 rounds)');
  });
});

describe('rotated', () => {
  it('starts each round one later, so every item runs first once in as many rounds', () => {
    const items = ['raw', 'native', 'ws'];
    expect([0, 1, 2, 3].map((r) => rotated(items, r).join(' '))).toEqual([
      'raw native ws',
      'native ws raw',
      'ws raw native',
      'raw native ws',
    ]);
    expect(items).toEqual(['raw', 'native', 'ws']);
  });
});

describe('roundsRow', () => {
  it('shows each side’s median and keeps both sides’ rounds for the per-round ratio', () => {
    const row = roundsRow('echo p50', 'ms', [3, 1, 2], [1, 2, 4], false);
    expect(row).toEqual({
      name: 'echo p50',
      value: 2,
      unit: 'ms',
      baseline: 2,
      higherIsBetter: false,
      rounds: { value: [3, 1, 2], baseline: [1, 2, 4] },
    });
    // Per round 3, 0.5 and 0.5: the ratio printed is 0.5, not the 1 of the medians.
    expect(perRoundRatios(row.rounds!.value, row.rounds!.baseline).median).toBe(0.5);
  });
});
