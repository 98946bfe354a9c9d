/** One benchmark figure; `baseline` is the same quantity measured without the thing under test, in the same run. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  /** true when bigger is better (rates), false for costs and latencies. */
  higherIsBetter?: boolean;
  /**
   * The figure and its baseline in each round, when the two were measured in alternating rounds: the ratio printed is
   * then the median of the per-round ratios, with their min–max (a slow slice moves one round, not the verdict).
   */
  rounds?: { value: number[]; baseline: number[] };
  /** The goal for this row's ratio, kept as a regression check (bench/goal.ts prints its verdict). */
  goal?: Goal;
}

/** A regression check on a row's ratio: at least or at most `bound` times its baseline. */
export interface Goal {
  readonly kind: 'atLeast' | 'atMost';
  readonly bound: number;
}
