import { randomBytes } from 'node:crypto';
import { DropReason } from '../v1/stats';
import { SourceBuckets, checkBucketLimit, type BucketLimit } from './sourceBuckets';

/** Connect attempts allowed per source address and per /24 (IPv6: per /64) before a server drops them. */
export interface ConnectLimits {
  /** Per source address. A reference client asks twice a second until accepted; a native one about 3 times. */
  readonly perSource: BucketLimit;
  /** Per /24: every machine of a LAN party may share one, so it is far larger. */
  readonly perPrefix: BucketLimit;
}

/**
 * Defaults: 128 attempts at once then 16 a second per address (the burst lets one machine start 64 clients at once,
 * as the bench does: a native client asks twice), 256 then 128 a second per /24.
 */
export const DEFAULT_CONNECT_LIMITS: ConnectLimits = {
  perSource: { rate: 16, burst: 128 },
  perPrefix: { rate: 128, burst: 256 },
};

const SOURCE_SLOTS = 8192;
const PREFIX_SLOTS = 2048;
const { SOURCE_LIMITED, PREFIX_LIMITED } = DropReason;

/** Resolves a server's `connectLimits` option (false: no limits), checking each number. */
export function resolveConnectLimits(option: Partial<ConnectLimits> | false | undefined): ConnectLimits | false {
  if (option === false) return false;
  return {
    perSource: checkBucketLimit(option?.perSource ?? DEFAULT_CONNECT_LIMITS.perSource, 'connectLimits.perSource'),
    perPrefix: checkBucketLimit(option?.perPrefix ?? DEFAULT_CONNECT_LIMITS.perPrefix, 'connectLimits.perPrefix'),
  };
}

/**
 * The door's rate limits on connect attempts from addresses without a peer: a token bucket per source address and
 * one per /24, both in fixed-size tables (a flood of forged sources costs no memory). A source over its own limit
 * does not drain its /24's bucket, so one noisy machine does not lock out its neighbours.
 */
export class ConnectLimiter {
  private readonly sources: SourceBuckets | undefined;
  private readonly prefixes: SourceBuckets | undefined;
  /** Key halves of the last address parsed (set by `parse`). */
  private sourceKey = 0;
  private prefixKey = 0;

  constructor(
    limits: ConnectLimits | false,
    /** Current time in seconds. */
    private readonly clock: () => number,
    seed: () => Uint8Array = () => randomBytes(8),
  ) {
    if (limits === false) return;
    const bytes = seed();
    const seedOf = (at: number) =>
      ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
    this.sources = new SourceBuckets(SOURCE_SLOTS, limits.perSource, seedOf(0));
    this.prefixes = new SourceBuckets(PREFIX_SLOTS, limits.perPrefix, seedOf(4));
  }

  /** Spends one attempt of `address`; the drop reason when its source or its /24 is over the limit. */
  check(address: string): DropReason | undefined {
    if (!this.sources || !this.prefixes) return undefined;
    const now = this.clock();
    this.parse(address);
    if (!this.sources.take(this.sourceKey, now)) return SOURCE_LIMITED;
    if (!this.prefixes.take(this.prefixKey, now)) return PREFIX_LIMITED;
    return undefined;
  }

  /** Sets the keys of `address` without allocating: an IPv4 address (also IPv4-mapped IPv6) and its /24, else hashes. */
  private parse(address: string): void {
    const ipv4 = ipv4Value(address, address.startsWith('::ffff:') ? 7 : 0);
    if (ipv4 >= 0) {
      this.sourceKey = ipv4;
      this.prefixKey = ipv4 >>> 8;
      return;
    }
    // IPv6: the whole text for the source, the text before the fourth colon (the /64 when written in full) for the prefix.
    let h = 0x811c9dc5;
    let prefix = -1;
    let colons = 0;
    for (let i = 0; i < address.length; i++) {
      const c = address.charCodeAt(i);
      if (c === 58 && ++colons === 4) prefix = h;
      h = Math.imul(h ^ c, 0x01000193) >>> 0;
    }
    this.sourceKey = h;
    this.prefixKey = prefix < 0 ? h : prefix;
  }
}

/** The 32-bit value of a dotted-quad IPv4 address starting at `from`, or -1 when the text is not one. */
export function ipv4Value(text: string, from = 0): number {
  let value = 0;
  let part = 0;
  let digits = 0;
  let parts = 0;
  for (let i = from; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 46;
    if (c >= 48 && c <= 57) {
      part = part * 10 + (c - 48);
      digits += 1;
      if (digits > 3 || part > 255) return -1;
    } else if (c === 46 && digits > 0) {
      value = value * 256 + part;
      parts += 1;
      part = 0;
      digits = 0;
    } else return -1;
  }
  return parts === 4 ? value >>> 0 : -1;
}
