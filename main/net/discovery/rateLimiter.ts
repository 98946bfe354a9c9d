/** Token-bucket settings: `burst` replies at once, refilled at `perSecond`. */
export interface RateLimit {
  readonly burst: number;
  readonly perSecond: number;
}

/** Decides, per key (a source address), whether one more reply may be sent now. */
export interface RateLimiter {
  /** Takes a token for `key` if one is available. */
  allow(key: string): boolean;
  /** Keys currently tracked (bounded by `maxKeys`). */
  readonly size: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * Per-key token buckets with a bounded table: when `maxKeys` is reached the least recently used key is
 * forgotten, so a flood of spoofed sources cannot grow memory. `now` is in milliseconds and injected.
 */
export function createRateLimiter(limit: RateLimit, options: { now: () => number; maxKeys?: number }): RateLimiter {
  const maxKeys = options.maxKeys ?? 1024;
  const buckets = new Map<string, Bucket>();
  return {
    allow(key: string): boolean {
      const now = options.now();
      const bucket = buckets.get(key) ?? { tokens: limit.burst, updatedAt: now };
      const elapsed = Math.max(0, now - bucket.updatedAt) / 1000;
      bucket.tokens = Math.min(limit.burst, bucket.tokens + elapsed * limit.perSecond);
      bucket.updatedAt = now;
      // Re-insert so Map order is least-recently-used first.
      buckets.delete(key);
      buckets.set(key, bucket);
      if (buckets.size > maxKeys) {
        const oldest = buckets.keys().next().value;
        if (oldest !== undefined) buckets.delete(oldest);
      }
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
    get size() {
      return buckets.size;
    },
  };
}
