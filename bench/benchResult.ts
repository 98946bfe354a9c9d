/** One benchmark figure; `baseline` is the same quantity measured without the thing under test, in the same run. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  /** true when bigger is better (rates), false for costs and latencies. */
  higherIsBetter?: boolean;
}
