import { ClockOffsetEstimator, type ClockOffsetOptions } from './clockOffset';
import {
  cloneState,
  compileAngleMatcher,
  interpolateState,
  type AngleFields,
  type AnglePredicate,
} from './interpolateState';
import { upperBound } from './sortedSearch';

/** Construction options for {@link SnapshotInterpolator}. */
export interface SnapshotInterpolatorOptions {
  /** The local monotonic clock, in seconds; arrival stamps and lag-compensation "now" come from it. Required. */
  readonly now: () => number;
  /** Most snapshots kept; older ones are evicted. Default 64, minimum 2. */
  readonly capacity?: number;
  /** Which fields are angles in radians, interpolated the short way round (see {@link AngleFields}). */
  readonly angles?: AngleFields;
  /** Tuning of the server-clock offset estimator used by `add(data, { serverTime })`. */
  readonly clockOffset?: ClockOffsetOptions;
}

/** Per-snapshot options of {@link SnapshotInterpolator.add}. */
export interface AddSnapshotOptions {
  /**
   * The server's clock (seconds) when it produced the snapshot. When given, snapshots are placed by server time and
   * render times are mapped onto the server timeline through a smoothed clock-offset estimate (see
   * ClockOffsetEstimator), which removes arrival jitter and orders late (reordered) snapshots correctly.
   * An interpolator is either all server-stamped or all arrival-stamped; clear() it if the server clock restarts.
   */
  readonly serverTime?: number;
}

/** Default {@link SnapshotInterpolatorOptions.capacity}. */
export const DEFAULT_SNAPSHOT_CAPACITY = 64;

type StampMode = 'arrival' | 'server';

/**
 * Timestamped history of one remote entity's state; `sample(t)` reconstructs the state at any local time by
 * interpolating the two snapshots around it (binary search), clamping to the oldest/newest outside the history.
 * Numbers blend linearly (configured angles the short way); other fields hold the earlier snapshot's value until
 * the later snapshot's time. One instance per remote entity.
 */
export class SnapshotInterpolator<T extends object = Record<string, unknown>> {
  /** The injected local clock (seconds). */
  readonly now: () => number;
  private readonly capacity: number;
  private readonly isAngle: AnglePredicate;
  private readonly clock: ClockOffsetEstimator;
  private readonly times: number[] = [];
  private readonly states: T[] = [];
  private mode: StampMode | undefined;
  private dropped = 0;

  constructor(options: SnapshotInterpolatorOptions) {
    if (typeof options?.now !== 'function') throw new TypeError('SnapshotInterpolator needs a now() clock function');
    const capacity = options.capacity ?? DEFAULT_SNAPSHOT_CAPACITY;
    if (!Number.isSafeInteger(capacity) || capacity < 2) {
      throw new RangeError(`capacity must be an integer >= 2, got ${String(capacity)}`);
    }
    this.now = options.now;
    this.capacity = capacity;
    this.isAngle = compileAngleMatcher(options.angles);
    this.clock = new ClockOffsetEstimator(options.clockOffset);
  }

  /** Snapshots currently held. */
  get size(): number {
    return this.times.length;
  }

  /** Snapshots discarded on arrival because they were older than the whole (full) history. */
  get droppedCount(): number {
    return this.dropped;
  }

  /** Estimated local-minus-server clock offset in seconds now (server-stamped mode), else undefined. */
  get clockOffset(): number | undefined {
    return this.mode === 'server' ? this.clock.offsetAt(this.readNow()) : undefined;
  }

  /**
   * Adds a snapshot of (possibly nested) numeric state, stamped with the local arrival time `now()`, or placed by
   * `serverTime` (see {@link AddSnapshotOptions}). `data` is copied. A snapshot with the same stamp replaces the held one.
   */
  add(data: T, options: AddSnapshotOptions = {}): void {
    if (typeof data !== 'object' || data === null) throw new TypeError('snapshot data must be an object');
    const arrival = this.readNow();
    const mode: StampMode = options.serverTime === undefined ? 'arrival' : 'server';
    if (this.mode !== undefined && this.mode !== mode) {
      throw new Error(`this interpolator holds ${this.mode}-stamped snapshots; cannot add a ${mode}-stamped one`);
    }
    let stamp = arrival;
    if (options.serverTime !== undefined) {
      if (!Number.isFinite(options.serverTime)) throw new RangeError(`serverTime must be finite`);
      this.clock.observe(options.serverTime, arrival);
      stamp = options.serverTime;
    }
    this.mode = mode;
    this.insert(stamp, cloneState(data));
  }

  /**
   * The state at local time `renderTime`: interpolated between the snapshots around it, the oldest snapshot at or
   * before the history, the newest at or after it, or undefined when empty. Always a fresh copy.
   */
  sample(renderTime: number): T | undefined {
    if (!Number.isFinite(renderTime)) throw new RangeError(`renderTime must be finite, got ${renderTime}`);
    const t = this.mode === 'server' ? renderTime - (this.clock.offsetAt(this.readNow()) ?? 0) : renderTime;
    const next = upperBound(this.times, t);
    const before = this.states[next - 1];
    const after = this.states[next];
    if (before === undefined) return after === undefined ? undefined : cloneState(after);
    if (after === undefined || this.times[next - 1] === t) return cloneState(before);
    const t0 = this.times[next - 1] as number;
    const t1 = this.times[next] as number;
    return interpolateState(before, after, (t - t0) / (t1 - t0), this.isAngle);
  }

  /** Forgets all snapshots, the stamping mode and the clock offset estimate; counters are kept. */
  clear(): void {
    this.times.length = 0;
    this.states.length = 0;
    this.mode = undefined;
    this.clock.reset();
  }

  private readNow(): number {
    const now = this.now();
    if (!Number.isFinite(now)) throw new RangeError(`now() returned a non-finite time: ${now}`);
    return now;
  }

  private insert(stamp: number, data: T): void {
    const at = upperBound(this.times, stamp);
    if (at > 0 && this.times[at - 1] === stamp) {
      this.states[at - 1] = data;
      return;
    }
    if (at === 0 && this.times.length >= this.capacity) {
      this.dropped += 1;
      return;
    }
    this.times.splice(at, 0, stamp);
    this.states.splice(at, 0, data);
    if (this.times.length > this.capacity) {
      this.times.shift();
      this.states.shift();
    }
  }
}
