import { createRateLimiter, type RateLimit } from '../base/rateLimiter';

/** Slows guessing: joins of rooms that do not exist, counted against the address that asks. */
export interface ProbeGuard {
  /**
   * Milliseconds to hold the answer to a join from `address` (0: at once), or -1: refuse it now, its line is
   * full. Joins of unknown rooms spend the address's budget; a join of a room that exists spends nothing, but
   * once the address is over budget it waits in the same line, so how long an answer takes tells a prober
   * nothing about whether the room exists.
   */
  delayFor(address: string, unknownRoom: boolean): number;
}

/** Options of {@link createProbeGuard}. */
export interface ProbeGuardOptions {
  /** Unknown-room answers an address gets at once. */
  readonly budget: RateLimit;
  /** Past the budget, each answer comes this much later than the one before, growing up to `maxDelayMs`. */
  readonly stepMs: number;
  readonly maxDelayMs: number;
  /** The longest an answer may wait in an address's line; later joins are refused at once. */
  readonly maxQueueMs: number;
  readonly now: () => number;
  readonly maxKeys: number;
}

/** Sets `key` as the most recently used entry of a map bounded by `maxKeys`. */
function remember(map: Map<string, number>, key: string, value: number, maxKeys: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > maxKeys) map.delete(map.keys().next().value as string);
}

/**
 * A token bucket per address, and past it one line per address: answers go out one after another, each a
 * step later than the last (so sending probes faster, or on more connections, gets no more answers); the
 * line is bounded, and clears once the address is quiet and its budget refilled.
 */
export function createProbeGuard(options: ProbeGuardOptions): ProbeGuard {
  const limiter = createRateLimiter(options.budget, { now: options.now, maxKeys: options.maxKeys });
  const excess = new Map<string, number>();
  const lineEnds = new Map<string, number>();
  return {
    delayFor(address, unknownRoom) {
      const t = options.now();
      const lineEnd = lineEnds.get(address) ?? 0;
      if (lineEnd <= t) {
        // Quiet for long enough: the address starts over (its budget has refilled meanwhile).
        if (excess.has(address) && t - lineEnd >= 2 * options.maxQueueMs) excess.delete(address);
        if (unknownRoom ? limiter.allow(address) : !excess.has(address)) {
          if (unknownRoom) excess.delete(address);
          lineEnds.delete(address);
          return 0;
        }
      }
      const over = (excess.get(address) ?? 0) + 1;
      remember(excess, address, over, options.maxKeys);
      const at = Math.max(t, lineEnd) + Math.min(options.maxDelayMs, over * options.stepMs);
      if (at - t > options.maxQueueMs) return -1;
      remember(lineEnds, address, at, options.maxKeys);
      return at - t;
    },
  };
}
