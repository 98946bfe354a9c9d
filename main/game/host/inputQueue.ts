import type { GameInput, GameInputCodec } from '../../../shared/games/gameDefinition';

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
export interface TickInput<I extends GameInput = GameInput> {
  readonly input: I;
  readonly arrivedAt: number | undefined;
}

/** The game's hooks the queue needs: what to apply without input, what a repeat is, how one-shot actions carry. */
export type QueueInputHooks<I extends GameInput> = Pick<GameInputCodec<I, unknown>, 'neutral' | 'repeat' | 'carry'>;

interface Queued<I> {
  readonly input: I;
  readonly arrivedAt: number;
}

/**
 * One player's inputs between arrival and simulation: each sequence is applied once and in order, one per tick, so
 * the host moves the player exactly as the client predicted. A tick with nothing waiting repeats the last movement
 * and remembers the debt; the next time two or more inputs wait, one is skipped to pay it back, so a jitter burst
 * does not leave a permanently deeper (laggier) queue. The one-shot actions (tag's tag) of a skipped or dropped input
 * are carried to the next one applied, and a repeat leaves them out (the game's `carry` and `repeat`).
 */
export class InputQueue<I extends GameInput = GameInput> {
  readonly counters: InputQueueCounters = { accepted: 0, duplicate: 0, stale: 0, overflow: 0, repeated: 0, skipped: 0 };
  private readonly waiting: Queued<I>[] = [];
  private lastProcessed: number | undefined;
  private last: I;
  private debt = 0;
  private carried: I | undefined;

  constructor(
    private readonly hooks: QueueInputHooks<I>,
    private readonly capacity = INPUT_QUEUE_CAPACITY,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be >= 1, got ${capacity}`);
    this.last = hooks.neutral;
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
  offer(input: I, arrivedAt: number): OfferResult {
    const sequence = input.sequence;
    if (this.lastProcessed !== undefined && sequence <= this.lastProcessed) {
      this.counters.stale += 1;
      return 'stale';
    }
    let at = this.waiting.length;
    while (at > 0 && (this.waiting[at - 1] as Queued<I>).input.sequence > sequence) at -= 1;
    if (at > 0 && (this.waiting[at - 1] as Queued<I>).input.sequence === sequence) {
      this.counters.duplicate += 1;
      return 'duplicate';
    }
    this.waiting.splice(at, 0, { input, arrivedAt });
    this.counters.accepted += 1;
    while (this.waiting.length > this.capacity) {
      this.drop(this.waiting.shift() as Queued<I>);
      this.counters.overflow += 1;
    }
    return 'accepted';
  }

  /** The input to apply this tick (see the class comment). */
  next(): TickInput<I> {
    let taken = this.waiting.shift();
    if (taken === undefined) {
      // Before the first input there is nothing to repeat and nothing owed.
      if (this.lastProcessed === undefined) return { input: this.hooks.neutral, arrivedAt: undefined };
      this.debt = Math.min(MAX_INPUT_DEBT, this.debt + 1);
      this.counters.repeated += 1;
      return { input: this.hooks.repeat(this.last), arrivedAt: undefined };
    }
    while (this.debt > 0 && this.waiting.length > 0) {
      this.drop(taken);
      this.debt -= 1;
      this.counters.skipped += 1;
      taken = this.waiting.shift() as Queued<I>;
    }
    this.lastProcessed = taken.input.sequence;
    this.last = taken.input;
    const carried = this.carried;
    this.carried = undefined;
    return {
      input: carried === undefined ? taken.input : this.hooks.carry(carried, taken.input),
      arrivedAt: taken.arrivedAt,
    };
  }

  /** Marks an input processed that will not be applied; its one-shot actions are kept for the next one. */
  private drop(queued: Queued<I>): void {
    this.lastProcessed = queued.input.sequence;
    this.carried = this.carried === undefined ? queued.input : this.hooks.carry(this.carried, queued.input);
  }
}
