import type { BenchResult, Goal } from './benchResult';
import { perRoundRatios } from './rounds';

/** The ratio ≥ `bound`. */
export const atLeast = (bound: number): Goal => ({ kind: 'atLeast', bound });
/** The ratio ≤ `bound`. */
export const atMost = (bound: number): Goal => ({ kind: 'atMost', bound });

/**
 * The ratio a goal is checked on: the median of the per-round ratios when the row has rounds, else value ÷ baseline,
 * else the value itself (a row that is already a ratio, unit ×). NaN when there is none.
 */
export function checkedRatio(row: BenchResult): number {
  if (row.rounds) return perRoundRatios(row.rounds.value, row.rounds.baseline).median;
  if (row.baseline !== undefined) return row.baseline === 0 ? Number.NaN : row.value / row.baseline;
  return row.unit === '×' ? row.value : Number.NaN;
}

/** Whether `ratio` meets `goal`; undefined when it cannot tell (no ratio). */
export function meets(goal: Goal, ratio: number): boolean | undefined {
  if (!Number.isFinite(ratio)) return undefined;
  return goal.kind === 'atLeast' ? ratio >= goal.bound : ratio <= goal.bound;
}

/** "≥ 2.5× ✓", "≤ 1.1× ✗ (not met)", "≤ 1.15× ?" when there is no ratio; '' without a goal. */
export function formatGoal(row: BenchResult): string {
  if (!row.goal) return '';
  const bound = `${row.goal.kind === 'atLeast' ? '≥' : '≤'} ${row.goal.bound}×`;
  const verdict = meets(row.goal, checkedRatio(row));
  return verdict === undefined ? `${bound} ?` : verdict ? `${bound} ✓` : `${bound} ✗ (not met)`;
}
