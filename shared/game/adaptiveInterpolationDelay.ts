import { MAX_REPORTED_INTERPOLATION_DELAY } from './gameProtocol';

/** Options of {@link AdaptiveInterpolationDelay}; times in seconds. */
export interface AdaptiveInterpolationDelayOptions {
  /** The delay until `warmup` snapshots have been measured. Default 0.1. */
  readonly initial?: number;
  /** Snapshots measured before the delay follows them. Default 8. */
  readonly warmup?: number;
  /** Added to one snapshot interval plus jitter, for the clock estimate's own wander. Default 0.003. */
  readonly margin?: number;
  /** The share of arrivals the delay covers without extrapolating (a quantile of arrival jitter). Default 0.95. */
  readonly jitterQuantile?: number;
  /** Arrivals the jitter is measured over. Default 128 (about 2 s at 60 snapshots a second). */
  readonly jitterWindow?: number;
  /** Fastest shrink, seconds of delay per second: the others' motion replays at most this much fast. Default 0.01. */
  readonly shrinkRate?: number;
  /** Bounds of the delay. Default 0.005 and MAX_REPORTED_INTERPOLATION_DELAY (what the host takes for rewinding). */
  readonly min?: number;
  readonly max?: number;
}

/** How a view picks its interpolation delay: a fixed number of seconds, or following the snapshots. */
export type InterpolationDelaySetting = number | 'adaptive';

/** What a view asks of its interpolation delay (the adaptive one, or a fixed one that ignores what it is told). */
export interface InterpolationDelay {
  /** The delay at local time `now`, seconds. */
  at(now: number): number;
  /** A snapshot stamped `serverTime` by the host arrived at local time `arrival`. */
  observe(serverTime: number, arrival: number): void;
  /** The view drew `ahead` seconds past the newest snapshot at `now` (0 while interpolating). */
  drew(ahead: number, now: number): void;
}

/** The delay a setting asks for; a fixed one must be a non-negative number of seconds. */
export function interpolationDelayOf(setting: InterpolationDelaySetting): InterpolationDelay {
  if (setting === 'adaptive') return new AdaptiveInterpolationDelay();
  const fixed = checkedTime('interpolationDelay', setting, true);
  return { at: () => fixed, observe: () => undefined, drew: () => undefined };
}

/** Snapshot intervals the interval estimate is the median of: lost snapshots (a doubled gap) do not move it. */
const INTERVAL_WINDOW = 15;

function checkedTime(name: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new RangeError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got ${value}`);
  }
  return value;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[(sorted.length - 1) >> 1] as number;
}

/**
 * How far in the past a view draws the other players, following the snapshots as they arrive: one snapshot interval
 * (the median gap of their server times) plus a high quantile of arrival jitter (each arrival's transit above the
 * least-delayed one's, two intervals at most) plus a small margin. It grows at once when a snapshot comes later
 * than the delay covers (by two intervals past the jitter at most), and by the shortfall once an extrapolated stretch
 * ends (the view drew past the newest snapshot: one was lost or late); it shrinks towards the target at a bounded
 * rate, so the others' motion is replayed slightly fast, never jumps.
 * Pure, time injected (the view's local clock and the host's snapshot time, seconds).
 */
export class AdaptiveInterpolationDelay implements InterpolationDelay {
  private readonly initial: number;
  private readonly warmup: number;
  private readonly margin: number;
  private readonly quantile: number;
  private readonly jitterWindow: number;
  private readonly shrinkRate: number;
  private readonly min: number;
  private readonly max: number;
  private readonly transits: number[] = [];
  private readonly intervals: number[] = [];
  private newest: number | undefined;
  private observed = 0;
  /** The delay set at `baseTime`; it shrinks from there towards `target`. */
  private base: number;
  private baseTime = 0;
  private target: number;
  /** Largest distance drawn past the newest snapshot in the current extrapolated stretch. */
  private shortfall = 0;

  constructor(options: AdaptiveInterpolationDelayOptions = {}) {
    this.min = checkedTime('min', options.min ?? 0.005, true);
    this.max = checkedTime('max', options.max ?? MAX_REPORTED_INTERPOLATION_DELAY);
    if (this.min > this.max) throw new RangeError(`min (${this.min}) must not exceed max (${this.max})`);
    this.initial = this.clamp(checkedTime('initial', options.initial ?? 0.1, true));
    this.margin = checkedTime('margin', options.margin ?? 0.003, true);
    this.shrinkRate = checkedTime('shrinkRate', options.shrinkRate ?? 0.01);
    this.quantile = options.jitterQuantile ?? 0.95;
    if (!(this.quantile >= 0 && this.quantile <= 1)) {
      throw new RangeError(`jitterQuantile must be in [0, 1], got ${this.quantile}`);
    }
    this.warmup = options.warmup ?? 8;
    this.jitterWindow = options.jitterWindow ?? 128;
    for (const [name, value] of [
      ['warmup', this.warmup],
      ['jitterWindow', this.jitterWindow],
    ] as const) {
      if (!Number.isSafeInteger(value) || value < 2)
        throw new RangeError(`${name} must be an integer >= 2, got ${value}`);
    }
    this.base = this.target = this.initial;
  }

  /** Whether enough snapshots were measured for the delay to follow them. */
  get settled(): boolean {
    return this.observed >= this.warmup;
  }

  /** The measured snapshot interval (median gap of server times), undefined before two snapshots. */
  get interval(): number | undefined {
    return this.intervals.length === 0 ? undefined : median(this.intervals);
  }

  /** The delay at local time `now`. */
  at(now: number): number {
    if (!this.settled || this.base <= this.target) return this.base;
    return Math.max(this.target, this.base - this.shrinkRate * Math.max(0, now - this.baseTime));
  }

  /** Folds in a snapshot stamped `serverTime` by the host that arrived at local time `arrival`. */
  observe(serverTime: number, arrival: number): void {
    if (!Number.isFinite(serverTime) || !Number.isFinite(arrival)) {
      throw new RangeError(`snapshot times must be finite, got server=${serverTime} arrival=${arrival}`);
    }
    // One no newer than the newest (a reordered or repeated snapshot, or a host clock standing still) tells nothing.
    if (this.newest !== undefined && serverTime <= this.newest) return;
    if (this.newest !== undefined) {
      this.intervals.push(serverTime - this.newest);
      if (this.intervals.length > INTERVAL_WINDOW) this.intervals.shift();
    }
    this.newest = serverTime;
    const transit = arrival - serverTime;
    this.transits.push(transit);
    if (this.transits.length > this.jitterWindow) this.transits.shift();
    this.observed += 1;
    const interval = this.interval;
    if (!this.settled || interval === undefined) return;
    const sorted = [...this.transits].sort((a, b) => a - b);
    const fastest = sorted[0] as number;
    // Lateness past two intervals is a stall (a host or page that did not run for that long, its snapshots then coming
    // in a burst), not jitter: no delay a player would accept covers it, so it is left to extrapolation. Counted as
    // jitter, stalls on a busy machine kept the delay near its 250 ms maximum a tenth of the time (key-to-pixel bench).
    const jitter = Math.min((sorted[Math.ceil(this.quantile * (sorted.length - 1))] as number) - fastest, 2 * interval);
    const current = this.at(arrival);
    this.target = this.clamp(interval + jitter + this.margin);
    // One arrival far later than the rest is most often a stall too: it grows the delay by two intervals past the
    // jitter at most, as an extrapolated stretch does (a lasting change moves the quantile itself). Uncapped, one
    // 250 ms stall held the others 250 ms in the past, shrinking back over 25 s.
    const late = Math.min(transit - fastest, jitter + 2 * interval);
    const needed = this.clamp(interval + Math.max(jitter, late) + this.margin);
    // The first settled estimate is taken as is (down from the initial delay too); later ones only grow at once.
    const first = this.observed === this.warmup;
    this.setBase(first ? needed : Math.max(current, needed), arrival);
  }

  /**
   * Tells how far past the newest snapshot the view drew at `now` (seconds, 0 while interpolating). An extrapolated
   * stretch, when it ends, raises the delay to the target plus its largest shortfall (up to two intervals), so the
   * next such gap is bridged by interpolation. From the target, not from the delay now, so stretches that keep coming
   * (a page that stalls every second or so) cannot ratchet it up.
   */
  drew(ahead: number, now: number): void {
    if (!this.settled || !Number.isFinite(ahead)) return;
    if (ahead > 0) {
      this.shortfall = Math.max(this.shortfall, ahead);
      return;
    }
    if (this.shortfall === 0) return;
    const grow = Math.min(this.shortfall, 2 * (this.interval ?? this.shortfall));
    this.shortfall = 0;
    const current = this.at(now);
    const raised = this.clamp(this.target + grow);
    if (raised > current) this.setBase(raised, now);
  }

  private setBase(value: number, now: number): void {
    this.base = value;
    this.baseTime = now;
  }

  private clamp(value: number): number {
    return Math.min(this.max, Math.max(this.min, value));
  }
}
