import type { BenchResult } from './benchResult';
import { percentile } from './percentile';

/** The median of per-round ratios, and their range. */
export interface RatioSummary {
  median: number;
  min: number;
  max: number;
  rounds: number;
}

/** Median of `values` (the lower middle for an even count, as {@link percentile} ranks it). */
export const median = (values: readonly number[]): number => percentile(values, 50);

/**
 * Each round's subject ÷ baseline, summarised: the subject and its baseline ran back to back in every round, so a
 * round the machine was slow in moves one ratio, not the median. Rounds missing either figure are left out.
 */
export function perRoundRatios(subject: readonly number[], baseline: readonly number[]): RatioSummary {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(subject.length, baseline.length); i++) {
    const s = subject[i]!;
    const b = baseline[i]!;
    if (Number.isFinite(s) && Number.isFinite(b) && b !== 0) ratios.push(s / b);
  }
  if (ratios.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, rounds: 0 };
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), rounds: ratios.length };
}

/** The order of `items` in round `round`: rotated by one each round, so no item always runs first or after another. */
export function rotated<T>(items: readonly T[], round: number): T[] {
  const k = ((round % items.length) + items.length) % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/**
 * A row measured in alternating rounds: `value` and `baseline` one figure per round, the medians shown and the ratio
 * printed the median of the per-round ratios.
 */
export function roundsRow(
  name: string,
  unit: string,
  value: number[],
  baseline: number[],
  higherIsBetter: boolean,
): BenchResult {
  return { name, value: median(value), unit, baseline: median(baseline), higherIsBetter, rounds: { value, baseline } };
}

/** "1.23× (1.10–1.40, 5 rounds)". */
export function formatRatio(summary: RatioSummary): string {
  if (summary.rounds === 0) return '—';
  const f = (x: number) => x.toFixed(2);
  return `${f(summary.median)}× (${f(summary.min)}–${f(summary.max)}, ${summary.rounds} rounds)`;
}
