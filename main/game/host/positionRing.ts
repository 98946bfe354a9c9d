import type { Point } from '../../../shared/games/gameDefinition';

/**
 * One player's recent positions, stamped with host time, in fixed typed arrays: the host records every player every
 * tick, so appending allocates nothing (a SnapshotInterpolator copies each position and shifts its arrays).
 * `at(t)` is the position at `t` blended linearly between the stamps around it, clamped to the oldest and newest.
 */
export class PositionRing {
  private readonly times: Float64Array;
  private readonly xs: Float64Array;
  private readonly ys: Float64Array;
  /** Index of the oldest entry. */
  private head = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 2) throw new RangeError(`capacity must be >= 2, got ${capacity}`);
    this.times = new Float64Array(capacity);
    this.xs = new Float64Array(capacity);
    this.ys = new Float64Array(capacity);
  }

  /** Positions held. */
  get size(): number {
    return this.count;
  }

  /**
   * Appends the position at host time `time`; the same time again replaces the newest, and a time before the newest
   * is ignored (host time only moves forward). The oldest entry makes way once full.
   */
  push(time: number, x: number, y: number): void {
    if (this.count > 0) {
      const newest = this.slot(this.count - 1);
      const last = this.times[newest] as number;
      if (time < last) return;
      if (time === last) {
        this.xs[newest] = x;
        this.ys[newest] = y;
        return;
      }
    }
    let at: number;
    if (this.count < this.capacity) {
      at = this.slot(this.count);
      this.count += 1;
    } else {
      at = this.head;
      this.head = (this.head + 1) % this.capacity;
    }
    this.times[at] = time;
    this.xs[at] = x;
    this.ys[at] = y;
  }

  /** Where the player was at host time `time` (a fresh point), or undefined before anything was recorded. */
  at(time: number): Point | undefined {
    if (this.count === 0) return undefined;
    // First entry strictly after `time` (binary search over the ring in age order).
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.times[this.slot(mid)] as number) <= time) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return this.point(this.slot(0));
    const before = this.slot(lo - 1);
    if (lo === this.count || this.times[before] === time) return this.point(before);
    const after = this.slot(lo);
    const t0 = this.times[before] as number;
    const t = (time - t0) / ((this.times[after] as number) - t0);
    // a·(1−t) + b·t: exact at both ends, as the client's interpolation blends.
    return {
      x: (this.xs[before] as number) * (1 - t) + (this.xs[after] as number) * t,
      y: (this.ys[before] as number) * (1 - t) + (this.ys[after] as number) * t,
    };
  }

  private slot(index: number): number {
    return (this.head + index) % this.capacity;
  }

  private point(slot: number): Point {
    return { x: this.xs[slot] as number, y: this.ys[slot] as number };
  }
}
