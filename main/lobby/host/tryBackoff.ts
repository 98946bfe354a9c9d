/** How wrong passwords from one address are slowed down. */
export interface BackoffRules {
  /** Tries that never wait (at least 1): after that many failures, each further try waits. */
  readonly freeTries: number;
  /** The wait after the first failure beyond the free ones, ms; it doubles with each further failure. */
  readonly firstWaitMs: number;
  readonly maxWaitMs: number;
  /** An address quiet for this long starts afresh. */
  readonly forgetAfterMs: number;
  /** Addresses remembered at once (the oldest is forgotten first), so a spoofer cannot grow the table. */
  readonly maxSources: number;
}

/** 5 free tries, then 1 s, 2 s, 4 s … up to a minute; forgotten after 15 quiet minutes. */
export const DEFAULT_BACKOFF: BackoffRules = {
  freeTries: 5,
  firstWaitMs: 1000,
  maxWaitMs: 60_000,
  forgetAfterMs: 15 * 60_000,
  maxSources: 4096,
};

interface Record {
  failures: number;
  blockedUntil: number;
  lastFailure: number;
}

/** Per-source backoff after failed password tries. Pure apart from the injected clock. */
export class TryBackoff {
  private readonly sources = new Map<string, Record>();

  constructor(
    private readonly rules: BackoffRules,
    private readonly now: () => number,
  ) {}

  /** Milliseconds `source` must still wait before its next try is heard; 0 when it may try now. */
  waitMs(source: string): number {
    const record = this.current(source);
    return record ? Math.max(0, record.blockedUntil - this.now()) : 0;
  }

  /** Counts a failed try; beyond the free ones, the next try has to wait (doubling each time). */
  fail(source: string): void {
    const now = this.now();
    const record = this.current(source) ?? { failures: 0, blockedUntil: 0, lastFailure: now };
    record.failures += 1;
    record.lastFailure = now;
    const beyond = record.failures - this.rules.freeTries;
    if (beyond >= 0) {
      record.blockedUntil = now + Math.min(this.rules.maxWaitMs, this.rules.firstWaitMs * 2 ** Math.min(beyond, 30));
    }
    // Re-inserted so the map stays in order of last failure, oldest first, for eviction.
    this.sources.delete(source);
    this.sources.set(source, record);
    while (this.sources.size > this.rules.maxSources) this.sources.delete(this.sources.keys().next().value!);
  }

  /** A right answer: the address starts afresh. */
  succeed(source: string): void {
    this.sources.delete(source);
  }

  /** Addresses remembered now. */
  get size(): number {
    return this.sources.size;
  }

  private current(source: string): Record | undefined {
    const record = this.sources.get(source);
    if (record && this.now() - record.lastFailure > this.rules.forgetAfterMs && this.now() >= record.blockedUntil) {
      this.sources.delete(source);
      return undefined;
    }
    return record;
  }
}
