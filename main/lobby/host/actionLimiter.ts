/** At most `limit` actions in any `windowMs`. */
export interface ActionRate {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * A sliding-window rate limit per key (player id): allows an action when fewer than `limit` were allowed in
 * the last `windowMs`. Keeps at most `limit` timestamps per key. Pure apart from the injected clock.
 */
export class ActionLimiter {
  private readonly recent = new Map<number, number[]>();
  /** Actions refused so far. */
  refused = 0;

  constructor(
    private readonly rate: ActionRate,
    private readonly now: () => number,
  ) {
    if (!(Number.isInteger(rate.limit) && rate.limit >= 1)) throw new RangeError('limit must be ≥ 1');
  }

  /** Whether `key` may act now; counts the action when it may. */
  allow(key: number): boolean {
    const now = this.now();
    let times = this.recent.get(key);
    if (!times) this.recent.set(key, (times = []));
    while (times.length > 0 && now - times[0]! >= this.rate.windowMs) times.shift();
    if (times.length >= this.rate.limit) {
      this.refused += 1;
      return false;
    }
    times.push(now);
    return true;
  }

  /** Forgets a key (the player left). */
  forget(key: number): void {
    this.recent.delete(key);
  }
}
