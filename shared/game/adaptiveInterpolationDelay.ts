import { MAX_REPORTED_INTERPOLATION_DELAY } from './gameProtocol';

/** Options of {@link AdaptiveInterpolationDelay}; times in seconds. */
export interface AdaptiveInterpolationDelayOptions {
  /** The delay until `warmup` frames have been measured. Default 0.1. */
  readonly initial?: number;
  /** Frames measured before the delay follows them. Default 30 (half a second at 60 frames a second). */
  readonly warmup?: number;
  /** Added to the measured age, for the clock estimate's own wander. Default 0.003. */
  readonly margin?: number;
  /** The share of drawn frames the delay lets interpolate (a quantile of the newest snapshot's age). Default 0.99. */
  readonly ageQuantile?: number;
  /** Frames the age is measured over. Default 120 (2 s at 60 frames a second). */
  readonly ageWindow?: number;
  /** The quantile while snapshots go missing (see {@link AdaptiveInterpolationDelay}). Default 0.995. */
  readonly lossyAgeQuantile?: number;
  /** Frames the age is measured over while snapshots go missing. Default 240. */
  readonly lossyAgeWindow?: number;
  /** Seconds of the host's timeline a missing snapshot keeps the lossy quantile in force. Default 4. */
  readonly lossMemory?: number;
  /** Fastest shrink, seconds of delay per second: the others' motion replays at most this much fast. Default 0.01. */
  readonly shrinkRate?: number;
  /**
   * Fastest growth, seconds of delay per second, below 1 so the others never move backwards: their motion slows to
   * half speed while the delay grows. Default 0.5.
   */
  readonly growRate?: number;
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
  /** A snapshot stamped `serverTime` by the host arrived. */
  observe(serverTime: number): void;
  /**
   * The view drew a frame at local time `now` while its newest snapshot was `age` seconds old on the host's
   * timeline (now − clock offset − the snapshot's time): it interpolated when the delay was at least that, else it
   * extrapolated.
   */
  drew(age: number, now: number): void;
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
 * How far in the past a view draws the other players, measured where it matters: at each drawn frame, how old the
 * newest snapshot was on the host's timeline. The delay is a high quantile of those ages over the last two seconds
 * plus a small margin, so nearly every frame has a snapshot at or after the moment it draws. Measured at the draws,
 * not at the arrivals: snapshots and frames both come 60 times a second, and a snapshot that lands just before the
 * frames needs almost no delay while one that lands just after them needs a whole interval; a model of arrival
 * jitter plus one interval assumed the worse case always (key-to-pixel bench, clean LAN: the delay's median went
 * from 33–35 ms to 26 ms). An age past three snapshot intervals is a stall (a host or page that did not run for that
 * long), not something a delay a player would accept covers: it counts as three intervals and is left to
 * extrapolation. While snapshots go missing (one came after a gap in the last 4 s of the host's timeline), it takes
 * the second largest age of 240 frames instead of 120, so the frames a lost snapshot leaves waiting fall among the few
 * left out: simulated at 30 snapshots a second, 0–10 ms late and 2% lost, 0.27–0.48% of frames extrapolated against
 * 0.70–0.82%; on a clean link the longer window caught more of a busy machine's hiccups and cost ~5 ms of delay
 * (key-to-pixel bench, median delay 32–34 ms against 28). When an extrapolated stretch ends, the delay grows to the
 * target plus the stretch's shortfall (two intervals at most). It grows at half speed (the others slow down, never
 * step back) and shrinks towards the target at a bounded rate (their motion replays slightly fast): it never jumps
 * once settled.
 * Pure, time injected (the view's local clock and the host's snapshot time, seconds).
 */
export class AdaptiveInterpolationDelay implements InterpolationDelay {
  private readonly initial: number;
  private readonly warmup: number;
  private readonly margin: number;
  private readonly quantile: number;
  private readonly ageWindow: number;
  private readonly lossyQuantile: number;
  private readonly lossyWindow: number;
  private readonly lossMemory: number;
  /** Host time until which the lossy quantile holds: lossMemory past the newest snapshot that came after a gap. */
  private lossyUntil = -Infinity;
  private readonly shrinkRate: number;
  private readonly growRate: number;
  private readonly min: number;
  private readonly max: number;
  private readonly ages: number[] = [];
  private readonly intervals: number[] = [];
  private newest: number | undefined;
  private measured = 0;
  /** The delay set at `baseTime`; it shrinks from there towards `target`. */
  private base: number;
  private baseTime = 0;
  private target: number;
  /** Largest distance drawn past the newest snapshot in the current extrapolated stretch. */
  private shortfall = 0;
  /** The delay the last frame drew with, at `shownTime`: growth from there is bounded by growRate. */
  private shown: number;
  private shownTime = 0;

  constructor(options: AdaptiveInterpolationDelayOptions = {}) {
    this.min = checkedTime('min', options.min ?? 0.005, true);
    this.max = checkedTime('max', options.max ?? MAX_REPORTED_INTERPOLATION_DELAY);
    if (this.min > this.max) throw new RangeError(`min (${this.min}) must not exceed max (${this.max})`);
    this.initial = this.clamp(checkedTime('initial', options.initial ?? 0.1, true));
    this.margin = checkedTime('margin', options.margin ?? 0.003, true);
    this.shrinkRate = checkedTime('shrinkRate', options.shrinkRate ?? 0.01);
    this.growRate = checkedTime('growRate', options.growRate ?? 0.5);
    if (this.growRate >= 1) throw new RangeError(`growRate must be below 1, got ${this.growRate}`);
    this.quantile = options.ageQuantile ?? 0.99;
    this.lossyQuantile = options.lossyAgeQuantile ?? 0.995;
    for (const [name, value] of [
      ['ageQuantile', this.quantile],
      ['lossyAgeQuantile', this.lossyQuantile],
    ] as const) {
      if (!(value >= 0 && value <= 1)) throw new RangeError(`${name} must be in [0, 1], got ${value}`);
    }
    this.lossMemory = checkedTime('lossMemory', options.lossMemory ?? 4, true);
    this.warmup = options.warmup ?? 30;
    this.ageWindow = options.ageWindow ?? 120;
    this.lossyWindow = options.lossyAgeWindow ?? 240;
    for (const [name, value] of [
      ['warmup', this.warmup],
      ['ageWindow', this.ageWindow],
      ['lossyAgeWindow', this.lossyWindow],
    ] as const) {
      if (!Number.isSafeInteger(value) || value < 2)
        throw new RangeError(`${name} must be an integer >= 2, got ${value}`);
    }
    this.base = this.target = this.shown = this.initial;
  }

  /** Whether enough frames were measured for the delay to follow them. */
  get settled(): boolean {
    return this.measured >= this.warmup;
  }

  /** The measured snapshot interval (median gap of server times), undefined before two snapshots. */
  get interval(): number | undefined {
    return this.intervals.length === 0 ? undefined : median(this.intervals);
  }

  /** The delay at local time `now`. */
  at(now: number): number {
    const wanted =
      !this.settled || this.base <= this.target
        ? this.base
        : Math.max(this.target, this.base - this.shrinkRate * Math.max(0, now - this.baseTime));
    if (wanted <= this.shown) return wanted;
    return Math.min(wanted, this.shown + this.growRate * Math.max(0, now - this.shownTime));
  }

  /** Folds in a snapshot stamped `serverTime` by the host (its interval). */
  observe(serverTime: number): void {
    if (!Number.isFinite(serverTime)) throw new RangeError(`snapshot time must be finite, got ${serverTime}`);
    // One no newer than the newest (a reordered or repeated snapshot, or a host clock standing still) tells nothing.
    if (this.newest !== undefined && serverTime <= this.newest) return;
    if (this.newest !== undefined) {
      const interval = this.interval;
      // Half again the usual gap: at least one snapshot between these two never came.
      if (interval !== undefined && serverTime - this.newest > 1.5 * interval) {
        this.lossyUntil = serverTime + this.lossMemory;
      }
      this.intervals.push(serverTime - this.newest);
      if (this.intervals.length > INTERVAL_WINDOW) this.intervals.shift();
    }
    this.newest = serverTime;
  }

  /**
   * Folds in a drawn frame: the newest snapshot was `age` seconds old at `now` (see InterpolationDelay.drew). An
   * extrapolated stretch (age past the delay), when it ends, raises the delay to the target plus its largest
   * shortfall (up to two intervals), so the next such gap is bridged by interpolation. From the target, not from the
   * delay now, so stretches that keep coming (a page that stalls every second or so) cannot ratchet it up.
   */
  drew(age: number, now: number): void {
    const interval = this.interval;
    if (interval === undefined || !Number.isFinite(age) || !Number.isFinite(now)) return;
    const current = this.at(now);
    this.shown = current;
    this.shownTime = now;
    this.ages.push(Math.min(Math.max(0, age), 3 * interval));
    if (this.ages.length > Math.max(this.ageWindow, this.lossyWindow)) this.ages.shift();
    this.measured += 1;
    if (!this.settled) return;
    const lossy = this.newest !== undefined && this.newest <= this.lossyUntil;
    const sorted = this.ages.slice(-(lossy ? this.lossyWindow : this.ageWindow)).sort((a, b) => a - b);
    const quantile = lossy ? this.lossyQuantile : this.quantile;
    this.target = this.clamp((sorted[Math.ceil(quantile * (sorted.length - 1))] as number) + this.margin);
    // The first settled estimate is taken as is (down from the initial delay too); later ones grow as soon as they
    // are above the delay (at growRate), and shrink only at shrinkRate.
    if (this.measured === this.warmup || this.target > current) this.setBase(this.target, now);
    const ahead = age - current;
    if (ahead > 0) {
      this.shortfall = Math.max(this.shortfall, ahead);
      return;
    }
    if (this.shortfall === 0) return;
    const grow = Math.min(this.shortfall, 2 * interval);
    this.shortfall = 0;
    const raised = this.clamp(this.target + grow);
    if (raised > this.at(now)) this.setBase(raised, now);
  }

  private setBase(value: number, now: number): void {
    this.base = value;
    this.baseTime = now;
  }

  private clamp(value: number): number {
    return Math.min(this.max, Math.max(this.min, value));
  }
}
