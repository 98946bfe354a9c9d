/** Options for {@link ClockOffsetEstimator}. */
export interface ClockOffsetOptions {
  /** How many recent samples the minimum is taken over. Default 64 (about 3 s of 20 Hz snapshots). */
  readonly windowSize?: number;
  /**
   * Fastest the estimate may move, in seconds per second of local time. Default 0.02: the server timeline is
   * replayed at most 2% fast or slow while the estimate settles, which the eye does not notice.
   */
  readonly maxSlewRate?: number;
  /** A gap between estimate and target larger than this (seconds) is jumped at once, not slewed. Default 0.25. */
  readonly snapThreshold?: number;
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}

/**
 * Estimates `localClock - serverClock` from (serverTime, localArrivalTime) pairs without passing on arrival jitter.
 * Network delay only ever adds to the true offset, so the target is the minimum sample over a recent window (the
 * least-delayed packet); the estimate then glides towards that target at a bounded rate, continuously in local
 * time, so the mapped server timeline never jumps.
 */
export class ClockOffsetEstimator {
  private readonly windowSize: number;
  private readonly maxSlewRate: number;
  private readonly snapThreshold: number;
  private readonly window: number[] = [];
  private base: number | undefined;
  private baseTime = 0;
  private target = 0;

  constructor(options: ClockOffsetOptions = {}) {
    const windowSize = options.windowSize ?? 64;
    if (!Number.isSafeInteger(windowSize) || windowSize < 1) {
      throw new RangeError(`windowSize must be a positive integer, got ${String(windowSize)}`);
    }
    this.windowSize = windowSize;
    this.maxSlewRate = positive('maxSlewRate', options.maxSlewRate ?? 0.02);
    this.snapThreshold = positive('snapThreshold', options.snapThreshold ?? 0.25);
  }

  /** The estimate as of the latest sample (seconds), or undefined before the first. */
  get offset(): number | undefined {
    return this.base;
  }

  /** Samples currently in the window. */
  get sampleCount(): number {
    return this.window.length;
  }

  /** The estimate at local time `localTime`: the latest value slewed towards the target for the time since. */
  offsetAt(localTime: number): number | undefined {
    if (this.base === undefined) return undefined;
    const allowance = this.maxSlewRate * Math.max(0, localTime - this.baseTime);
    const gap = this.target - this.base;
    return this.base + Math.min(allowance, Math.max(-allowance, gap));
  }

  /** Folds in one packet stamped `serverTime` by the server and received at `localTime`. Throws on non-finite times. */
  observe(serverTime: number, localTime: number): void {
    if (!Number.isFinite(serverTime) || !Number.isFinite(localTime)) {
      throw new RangeError(`clock sample times must be finite, got server=${serverTime} local=${localTime}`);
    }
    this.window.push(localTime - serverTime);
    if (this.window.length > this.windowSize) this.window.shift();
    const current = this.offsetAt(localTime);
    let lowest = Infinity;
    for (const sample of this.window) if (sample < lowest) lowest = sample;
    this.target = lowest;
    this.baseTime = localTime;
    this.base = current === undefined || Math.abs(this.target - current) > this.snapThreshold ? this.target : current;
  }

  /** Forgets every sample. */
  reset(): void {
    this.window.length = 0;
    this.base = undefined;
    this.baseTime = 0;
    this.target = 0;
  }
}
