import { Listeners, reportCallbackError } from '../base/listeners';
import type { Scheduler, TimerHandle } from '../base/scheduler';
import type { ResumeVerdict } from './resumeToken';
import { ResumeTokens } from './resumeTokens';
import { DEFAULT_SEAT_GRACE_SEC, SeatHolds } from './seatHolds';

/** What happened to a seat: its guest's link went silent, came back, or the seat was let go for good. */
export type SeatChange = 'held' | 'resumed' | 'released';

/** Why a seat was let go. */
export type SeatReleaseReason = 'left' | 'kicked' | 'grace-over';

/** One change of a seat; `reason` only with 'released'. */
export interface SeatEvent {
  readonly seat: number;
  readonly change: SeatChange;
  readonly reason?: SeatReleaseReason;
}

/** Options of {@link RoomSeats}. */
export interface RoomSeatsOptions {
  readonly clock: Scheduler;
  /** Seconds a silent guest's seat waits; default DEFAULT_SEAT_GRACE_SEC. */
  readonly graceSec?: number;
  /** Random bytes of the resume tokens; default node:crypto's. */
  readonly random?: (bytes: number) => Buffer;
}

/** A resume that worked: the seat, its fresh token, and the old transport peer still bound to it, if any. */
export interface SeatResumed {
  readonly ok: true;
  readonly seat: number;
  readonly token: string;
  readonly replacedPeer: number | undefined;
}

/**
 * The players' seats of a room and the transport peers sitting in them. A seat's id is the player id, fixed for
 * the stay; its peer changes when the guest comes back on a new connection with its resume token. A peer that
 * goes away leaves its seat held for the grace period; then, or when the host removes it, the seat is released.
 */
export class RoomSeats {
  private readonly byPeer = new Map<number, number>();
  private readonly bySeat = new Map<number, number | undefined>();
  private readonly tokens: ResumeTokens;
  private readonly holds: SeatHolds;
  private readonly changes = new Listeners<[SeatEvent]>(reportCallbackError);
  private timer: TimerHandle | undefined;

  constructor(private readonly options: RoomSeatsOptions) {
    const now = () => options.clock.now();
    this.tokens = new ResumeTokens({ now, ...(options.random ? { random: options.random } : {}) });
    this.holds = new SeatHolds(now, options.graceSec ?? DEFAULT_SEAT_GRACE_SEC);
  }

  /** The grace period in seconds. */
  get graceSec(): number {
    return this.holds.graceSec;
  }

  /** Seat ids, in the order they were taken. */
  get seats(): number[] {
    return [...this.bySeat.keys()];
  }

  /** Called on every seat change. */
  onChange(listener: (event: SeatEvent) => void): () => void {
    return this.changes.add(listener);
  }

  /** Seats a newly admitted peer (the seat id is its player id) and returns its resume token. */
  take(seat: number, peerId: number, address: string): string {
    this.bySeat.set(seat, peerId);
    this.byPeer.set(peerId, seat);
    return this.tokens.issue(seat, address);
  }

  /** The seat a transport peer sits in. */
  seatOf(peerId: number): number | undefined {
    return this.byPeer.get(peerId);
  }

  /** The transport peer in a seat, undefined while it is held (or for no such seat). */
  peerOf(seat: number): number | undefined {
    return this.bySeat.get(seat);
  }

  /** Whether the seat waits for its guest. */
  isHeld(seat: number): boolean {
    return this.bySeat.has(seat) && this.bySeat.get(seat) === undefined;
  }

  /** Whole seconds a held seat still waits, for a countdown. */
  secondsLeft(seat: number): number | undefined {
    return this.holds.secondsLeft(seat);
  }

  /** When a held seat stops waiting, in the clock's milliseconds. */
  deadlineOf(seat: number): number | undefined {
    return this.holds.list().find((h) => h.seat === seat)?.deadline;
  }

  /**
   * A seated peer's link went silent (timed out): its seat is held, or released at once with a grace of 0.
   * Returns the seat, or undefined when the peer sat in none.
   */
  lost(peerId: number): number | undefined {
    const seat = this.byPeer.get(peerId);
    if (seat === undefined) return undefined;
    this.byPeer.delete(peerId);
    if (this.holds.graceSec === 0) {
      this.release(seat, 'grace-over');
      return seat;
    }
    this.bySeat.set(seat, undefined);
    this.holds.hold(seat);
    this.arm();
    this.changes.emit({ seat, change: 'held' });
    return seat;
  }

  /**
   * A peer presents a resume token from `address`. A good one puts the peer in its seat (held, or still bound to
   * an older connection of the same guest, which the caller drops quietly) and gives it a fresh token.
   */
  resume(token: unknown, peerId: number, address: string): SeatResumed | Extract<ResumeVerdict, { ok: false }> {
    const verdict = this.tokens.redeem(token, address);
    if (!verdict.ok) return verdict;
    const { seat } = verdict;
    const held = this.isHeld(seat);
    if (!this.bySeat.has(seat) || (held && !this.holds.resume(seat))) {
      // Past its deadline though the timer has not run yet: let it go now, as the timer would.
      if (held) this.release(seat, 'grace-over');
      return { ok: false, reason: 'no-seat' };
    }
    const replacedPeer = this.bySeat.get(seat);
    if (replacedPeer !== undefined) this.byPeer.delete(replacedPeer);
    const fresh = this.take(seat, peerId, address);
    this.arm();
    this.changes.emit({ seat, change: 'resumed' });
    return { ok: true, seat, token: fresh, replacedPeer };
  }

  /** Lets a seat go for good (left, kicked, grace over); false for no such seat. */
  release(seat: number, reason: SeatReleaseReason): boolean {
    if (!this.bySeat.has(seat)) return false;
    const peer = this.bySeat.get(seat);
    if (peer !== undefined) this.byPeer.delete(peer);
    this.bySeat.delete(seat);
    this.holds.remove(seat);
    this.tokens.revoke(seat);
    this.arm();
    this.changes.emit({ seat, change: 'released', reason });
    return true;
  }

  /** Forgets every seat and stops the timer (the room closes); nobody is told. */
  close(): void {
    this.bySeat.clear();
    this.byPeer.clear();
    this.holds.clear();
    this.arm();
    this.changes.clear();
  }

  /** One timer, at the earliest deadline of a held seat. */
  private arm(): void {
    if (this.timer !== undefined) this.options.clock.clearTimer(this.timer);
    this.timer = undefined;
    const next = this.holds.nextDeadline();
    if (next === undefined) return;
    this.timer = this.options.clock.setTimer(
      () => {
        this.timer = undefined;
        for (const { seat } of this.holds.expire()) this.release(seat, 'grace-over');
        this.arm();
      },
      Math.max(0, next - this.options.clock.now()),
    );
  }
}
