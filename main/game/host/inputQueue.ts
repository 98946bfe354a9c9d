import { NEUTRAL_INPUT } from '../../../shared/games/tag/input';
import type { PlayerInput } from '../../../shared/games/tag/types';

/** Inputs one player may have waiting (≈ 133 ms at 60 Hz); beyond it the oldest is dropped. */
export const INPUT_QUEUE_CAPACITY = 8;
/** Most starved ticks remembered for paying back later (see {@link InputQueue.next}). */
export const MAX_INPUT_DEBT = 4;

/** What {@link InputQueue.offer} did with an input. */
export type OfferResult = 'accepted' | 'duplicate' | 'stale';

/** Per-player input bookkeeping; every counter only grows. */
export interface InputQueueCounters {
  accepted: number;
  /** Copies of an input already waiting (the normal fate of redundant copies). */
  duplicate: number;
  /** Inputs at or before the last processed sequence (late redundant copies, or reordering). */
  stale: number;
  /** Inputs dropped unapplied because the queue was full. */
  overflow: number;
  /** Ticks with no input waiting, which repeated the last one (movement only). */
  repeated: number;
  /** Inputs skipped to pay back repeated ticks once inputs were waiting again. */
  skipped: number;
}

/** The input a tick applies, with the host time its first copy arrived (undefined for a repeat or neutral). */
export interface TickInput {
  readonly input: PlayerInput;
  readonly arrivedAt: number | undefined;
}

interface Queued {
  readonly input: PlayerInput;
  readonly arrivedAt: number;
}

/**
 * One player's inputs between arrival and simulation: each sequence is applied once and in order, one per tick, so
 * the host moves the player exactly as the client predicted. A tick with nothing waiting repeats the last movement
 * and remembers the debt; the next time two or more inputs wait, one is skipped to pay it back, so a jitter burst
 * does not leave a permanently deeper (laggier) queue. A skipped or dropped input's tag is carried to the next one.
 */
export class InputQueue {
  readonly counters: InputQueueCounters = { accepted: 0, duplicate: 0, stale: 0, overflow: 0, repeated: 0, skipped: 0 };
  private readonly waiting: Queued[] = [];
  private lastProcessed: number | undefined;
  private last: PlayerInput = NEUTRAL_INPUT;
  private debt = 0;
  private carriedTag = false;

  constructor(private readonly capacity = INPUT_QUEUE_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be >= 1, got ${capacity}`);
  }

  /** Highest sequence applied, skipped or dropped: what snapshots acknowledge. Undefined before the first. */
  get lastProcessedSequence(): number | undefined {
    return this.lastProcessed;
  }

  /** Inputs waiting. */
  get depth(): number {
    return this.waiting.length;
  }

  /** Files one received input (sequences must be validated integers) at host time `arrivedAt`. */
  offer(input: PlayerInput, arrivedAt: number): OfferResult {
    const sequence = input.sequence;
    if (this.lastProcessed !== undefined && sequence <= this.lastProcessed) {
      this.counters.stale += 1;
      return 'stale';
    }
    let at = this.waiting.length;
    while (at > 0 && (this.waiting[at - 1] as Queued).input.sequence > sequence) at -= 1;
    if (at > 0 && (this.waiting[at - 1] as Queued).input.sequence === sequence) {
      this.counters.duplicate += 1;
      return 'duplicate';
    }
    this.waiting.splice(at, 0, { input, arrivedAt });
    this.counters.accepted += 1;
    while (this.waiting.length > this.capacity) {
      this.consume(this.waiting.shift() as Queued);
      this.counters.overflow += 1;
    }
    return 'accepted';
  }

  /** The input to apply this tick (see the class comment). */
  next(): TickInput {
    let taken = this.waiting.shift();
    if (taken === undefined) {
      // Before the first input there is nothing to repeat and nothing owed.
      if (this.lastProcessed === undefined) return { input: NEUTRAL_INPUT, arrivedAt: undefined };
      this.debt = Math.min(MAX_INPUT_DEBT, this.debt + 1);
      this.counters.repeated += 1;
      return { input: { ...this.last, tag: false }, arrivedAt: undefined };
    }
    while (this.debt > 0 && this.waiting.length > 0) {
      this.consume(taken);
      this.debt -= 1;
      this.counters.skipped += 1;
      taken = this.waiting.shift() as Queued;
    }
    this.consume(taken);
    const tag = this.carriedTag;
    this.carriedTag = false;
    this.last = taken.input;
    return { input: tag ? { ...taken.input, tag: true } : taken.input, arrivedAt: taken.arrivedAt };
  }

  /** Marks an input processed; a tag on an input that will not be applied is kept for the next one. */
  private consume(queued: Queued): void {
    this.lastProcessed = queued.input.sequence;
    this.carriedTag ||= queued.input.tag;
  }
}
