/** How long a silent guest's seat waits for it by default, in seconds (a host setting). */
export const DEFAULT_SEAT_GRACE_SEC = 30;

/** Longest grace a host may set, in seconds: past it a seat would outlast most players' patience. */
export const MAX_SEAT_GRACE_SEC = 600;

/** Why a held seat was let go. */
export type SeatRelease = 'grace-over' | 'removed';

/** A seat waiting for its guest. */
export interface HeldSeat {
  readonly seat: number;
  /** When the wait began and when it ends, in the clock's milliseconds. */
  readonly since: number;
  readonly deadline: number;
}

/**
 * The seats of guests that went silent: each waits a grace period for its guest to come back (resume), then is let
 * go; the host may let one go at once. A pure state machine on an injected clock: the owner arms one timer at
 * {@link nextDeadline} and calls {@link expire} when it fires.
 */
export class SeatHolds {
  private readonly held = new Map<number, HeldSeat>();
  private readonly graceMs: number;

  constructor(
    private readonly now: () => number,
    graceSec: number = DEFAULT_SEAT_GRACE_SEC,
  ) {
    if (!Number.isFinite(graceSec) || graceSec < 0 || graceSec > MAX_SEAT_GRACE_SEC) {
      throw new RangeError(`the seat grace must be 0–${MAX_SEAT_GRACE_SEC} s, got ${graceSec}`);
    }
    this.graceMs = graceSec * 1000;
  }

  /** The grace period in seconds. */
  get graceSec(): number {
    return this.graceMs / 1000;
  }

  /** Starts holding a seat whose guest went silent; a seat already held keeps its deadline. */
  hold(seat: number): HeldSeat {
    const current = this.held.get(seat);
    if (current !== undefined) return current;
    const since = this.now();
    const entry = { seat, since, deadline: since + this.graceMs };
    this.held.set(seat, entry);
    return entry;
  }

  /** Whether `seat` waits for its guest now (false once its deadline passed, even before {@link expire}). */
  isHeld(seat: number): boolean {
    const entry = this.held.get(seat);
    return entry !== undefined && this.now() < entry.deadline;
  }

  /** The guest came back in time: true and the seat is theirs again; false when it was not held or is past due. */
  resume(seat: number): boolean {
    if (!this.isHeld(seat)) return false;
    this.held.delete(seat);
    return true;
  }

  /** The host lets a held seat go at once; true if it was held. */
  remove(seat: number): boolean {
    return this.held.delete(seat);
  }

  /** Lets go of every seat whose grace is over, oldest first, and returns them. */
  expire(): HeldSeat[] {
    const now = this.now();
    const over = [...this.held.values()].filter((e) => now >= e.deadline).sort((a, b) => a.deadline - b.deadline);
    for (const e of over) this.held.delete(e.seat);
    return over;
  }

  /** Whole seconds left for a held seat (rounded up, for a countdown), or undefined when it is not held. */
  secondsLeft(seat: number): number | undefined {
    const entry = this.held.get(seat);
    if (entry === undefined) return undefined;
    return Math.max(0, Math.ceil((entry.deadline - this.now()) / 1000));
  }

  /** The earliest deadline of a held seat, for the owner's one timer; undefined when none is held. */
  nextDeadline(): number | undefined {
    let next: number | undefined;
    for (const e of this.held.values()) if (next === undefined || e.deadline < next) next = e.deadline;
    return next;
  }

  /** Every held seat. */
  list(): HeldSeat[] {
    return [...this.held.values()];
  }

  /** Forgets every hold (the room closes). */
  clear(): void {
    this.held.clear();
  }
}
