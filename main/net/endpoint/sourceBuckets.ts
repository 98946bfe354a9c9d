/** A token bucket's refill rate and size. */
export interface BucketLimit {
  /** Tokens added per second. */
  readonly rate: number;
  /** Most tokens a bucket holds: the burst a quiet key may spend at once. */
  readonly burst: number;
}

/** Throws a RangeError naming `what` unless `limit` has a positive finite rate and a burst of at least 1. */
export function checkBucketLimit(limit: BucketLimit, what: string): BucketLimit {
  if (!(Number.isFinite(limit.rate) && limit.rate > 0))
    throw new RangeError(`${what}.rate must be > 0, got ${limit.rate}`);
  if (!(Number.isFinite(limit.burst) && limit.burst >= 1))
    throw new RangeError(`${what}.burst must be ≥ 1, got ${limit.burst}`);
  return limit;
}

/**
 * Token buckets for 32-bit keys (addresses, prefixes) in a fixed-size table: memory never grows with the number of
 * keys seen, and a lookup allocates nothing. Two candidate slots per key, chosen by a hash with a per-table seed
 * (a sender cannot aim at a victim's slot). A new key takes a slot whose bucket is full again (its key went quiet);
 * when both are busy it shares the first one's bucket, so keys that collide are limited together, never freed.
 */
export class SourceBuckets {
  private readonly mask: number;
  private readonly keys: Uint32Array;
  private readonly used: Uint8Array;
  private readonly tokens: Float64Array;
  private readonly stamps: Float64Array;

  constructor(
    /** Slots in the table: a power of two ≥ 2. */
    slots: number,
    private readonly limit: BucketLimit,
    private readonly seed: number,
  ) {
    if (!(Number.isInteger(slots) && slots >= 2 && (slots & (slots - 1)) === 0)) {
      throw new RangeError(`slots must be a power of two ≥ 2, got ${slots}`);
    }
    checkBucketLimit(limit, 'limit');
    this.mask = slots - 1;
    this.keys = new Uint32Array(slots);
    this.used = new Uint8Array(slots);
    this.tokens = new Float64Array(slots);
    this.stamps = new Float64Array(slots);
  }

  /** Takes one token from `key`'s bucket at `now` (seconds); false when it is empty. */
  take(key: number, now: number): boolean {
    const slot = this.slotFor(key >>> 0, now);
    const left = this.refill(slot, now);
    if (left < 1) return false;
    this.tokens[slot] = left - 1;
    return true;
  }

  private slotFor(key: number, now: number): number {
    const a = hash(key ^ this.seed) & this.mask;
    const b = a ^ 1;
    if (this.used[a] === 1 && this.keys[a] === key) return a;
    if (this.used[b] === 1 && this.keys[b] === key) return b;
    const burst = this.limit.burst;
    const free =
      this.used[a] === 0 || this.refill(a, now) >= burst
        ? a
        : this.used[b] === 0 || this.refill(b, now) >= burst
          ? b
          : -1;
    if (free < 0) return a;
    this.used[free] = 1;
    this.keys[free] = key;
    this.tokens[free] = burst;
    this.stamps[free] = now;
    return free;
  }

  /** Brings a slot's bucket up to `now` and returns its tokens. */
  private refill(slot: number, now: number): number {
    const elapsed = now - this.stamps[slot]!;
    let tokens = this.tokens[slot]!;
    if (elapsed > 0) {
      tokens = Math.min(this.limit.burst, tokens + elapsed * this.limit.rate);
      this.tokens[slot] = tokens;
      this.stamps[slot] = now;
    }
    return tokens;
  }
}

/** A 32-bit integer mix (the murmur3 finalizer): nearby keys (addresses in one subnet) land far apart. */
function hash(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}
