import { describe, expect, it } from 'vitest';
import { atLeast, atMost, checkedRatio, formatGoal, meets } from '../../bench/goal';
import type { BenchResult } from '../../bench/benchResult';

const row = (extra: Partial<BenchResult>): BenchResult => ({ name: 'r', value: 2, unit: 'ms', ...extra });

describe('checkedRatio', () => {
  it('checks the median of the per-round ratios when there are rounds, not the ratio of the medians', () => {
    const rounds = { value: [150, 150, 150], baseline: [100, 10, 100] };
    expect(checkedRatio(row({ baseline: 100, rounds }))).toBe(1.5);
  });

  it('falls back to value ÷ baseline, then to a value that is a ratio itself', () => {
    expect(checkedRatio(row({ baseline: 4 }))).toBe(0.5);
    expect(checkedRatio(row({ baseline: 0 }))).toBeNaN();
    expect(checkedRatio(row({ unit: '×', value: 0.85 }))).toBe(0.85);
    expect(checkedRatio(row({}))).toBeNaN();
  });
});

describe('goals', () => {
  it('meets a bound inclusively, in its direction', () => {
    expect(meets(atLeast(2.5), 2.5)).toBe(true);
    expect(meets(atLeast(2.5), 2.49)).toBe(false);
    expect(meets(atMost(1.1), 1.1)).toBe(true);
    expect(meets(atMost(1.1), 1.12)).toBe(false);
    expect(meets(atMost(1.1), Number.NaN)).toBeUndefined();
  });

  it('prints the bound with its verdict, a question mark without a ratio, nothing without a goal', () => {
    expect(formatGoal(row({ baseline: 1, value: 3, goal: atLeast(2.5) }))).toBe('≥ 2.5× ✓');
    expect(formatGoal(row({ baseline: 1, value: 1.12, goal: atMost(1.1) }))).toBe('≤ 1.1× ✗ (not met)');
    expect(formatGoal(row({ goal: atMost(1.15) }))).toBe('≤ 1.15× ?');
    expect(formatGoal(row({ baseline: 1 }))).toBe('');
  });
});
