import { createRateLimiter, type RateLimit } from '../base/rateLimiter';

/** Slows guessing: joins of rooms that do not exist, counted against the address that asks. */
export interface ProbeGuard {
  /** Milliseconds to hold the "no such room" answer to `address` (0: at once, within its budget). */
  delayFor(address: string): number;
}

/** Options of {@link createProbeGuard}. */
export interface ProbeGuardOptions {
  /** Unknown-room answers an address gets at once. */
  readonly budget: RateLimit;
  /** Each probe past the budget waits this much longer than the one before, up to `maxDelayMs`. */
  readonly stepMs: number;
  readonly maxDelayMs: number;
  readonly now: () => number;
  readonly maxKeys: number;
}

/** A token bucket per address, and a growing delay once it is empty (reset when it refills). */
export function createProbeGuard(options: ProbeGuardOptions): ProbeGuard {
  const limiter = createRateLimiter(options.budget, { now: options.now, maxKeys: options.maxKeys });
  const excess = new Map<string, number>();
  return {
    delayFor(address) {
      if (limiter.allow(address)) {
        excess.delete(address);
        return 0;
      }
      const over = (excess.get(address) ?? 0) + 1;
      excess.delete(address);
      excess.set(address, over);
      if (excess.size > options.maxKeys) excess.delete(excess.keys().next().value as string);
      return Math.min(options.maxDelayMs, over * options.stepMs);
    },
  };
}
