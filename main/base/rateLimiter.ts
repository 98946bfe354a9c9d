/** Token-bucket settings: `burst` actions at once, refilled at `perSecond`. */
export interface RateLimit {
  readonly burst: number;
  readonly perSecond: number;
}

/** Decides, per key (a source address, a player), whether one more action may happen now. */
export interface RateLimiter<K extends string | number = string> {
  /** Takes a token for `key` if one is available; counts a refusal otherwise. */
  allow(key: K): boolean;
  /** Forgets `key` (it left): its next action starts with a full bucket. */
  forget(key: K): void;
  /** Keys currently tracked (bounded by `maxKeys`). */
  readonly size: number;
  /** Actions refused so far, over all keys. */
  readonly refused: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** Throws a RangeError unless `limit` has a finite burst ≥ 1 and a finite, non-negative refill rate. */
function checkRateLimit(limit: RateLimit): void {
  if (!(Number.isFinite(limit.burst) && limit.burst >= 1))
    throw new RangeError(`burst must be ≥ 1, got ${limit.burst}`);
  if (!(Number.isFinite(limit.perSecond) && limit.perSecond >= 0)) {
    throw new RangeError(`perSecond must be ≥ 0, got ${limit.perSecond}`);
  }
}

/**
 * The one per-key rate limiter of main (the transport's hot path has its own fixed table, SourceBuckets): token
 * buckets in a bounded table; when `maxKeys` is reached the least recently used key is forgotten, so a flood of
 * spoofed sources cannot grow memory. `now` is in milliseconds and injected.
 */
export function createRateLimiter<K extends string | number = string>(
  limit: RateLimit,
  options: { now: () => number; maxKeys?: number },
): RateLimiter<K> {
  checkRateLimit(limit);
  const maxKeys = options.maxKeys ?? 1024;
  const buckets = new Map<K, Bucket>();
  let refused = 0;
  return {
    allow(key: K): boolean {
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
      if (bucket.tokens < 1) {
        refused += 1;
        return false;
      }
      bucket.tokens -= 1;
      return true;
    },
    forget(key: K): void {
      buckets.delete(key);
    },
    get size() {
      return buckets.size;
    },
    get refused() {
      return refused;
    },
  };
}
