import type { EndpointOptions } from '../main/net/index';

/** The transport configurations the two-process benchmark compares. */
export const BENCH_MODES = ['v1', 'native'] as const;

/** One of {@link BENCH_MODES}. */
export type BenchMode = (typeof BENCH_MODES)[number];

/** Endpoint options for a mode; both processes build theirs from this, so they agree. */
export function benchEndpointOptions(mode: BenchMode): EndpointOptions {
  return mode === 'v1' ? { native: false } : {};
}
