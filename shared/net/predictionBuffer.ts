import { assertSequence, assertSequenceModulus, isSequenceNewerOnRing, UINT32_SEQUENCE_MODULUS } from './sequenceMath';

/** One locally applied input, as recorded for later replay. Named fields, so nothing can be passed out of order. */
export interface PredictionEntry<TInput, TState> {
  /** Sequence sent to the server with this input; must be newer than the previously recorded one. */
  readonly sequence: number;
  /** The input applied this frame. */
  readonly input: TInput;
  /** Seconds the input was applied over; replayed unchanged. */
  readonly dt: number;
  /** State predicted locally after applying the input; kept for inspection, never used by reconcile(). */
  readonly predictedState: TState;
}

/** Pure `(state, input, dt) => newState`; replayed after the fact, so it must not read clocks, randomness or globals. */
export type ApplyInput<TInput, TState> = (state: TState, input: TInput, dt: number) => TState;

/** Arguments of {@link PredictionBuffer.reconcile}. */
export interface ReconcileArgs<TInput, TState> {
  /** Highest input sequence the server had processed when it produced `authoritativeState`. */
  readonly lastProcessedSequence: number;
  /** The server's state after processing inputs up to `lastProcessedSequence`. */
  readonly authoritativeState: TState;
  /** Replays one pending input on top of a state. */
  readonly applyInput: ApplyInput<TInput, TState>;
}

/** Construction options for {@link PredictionBuffer}. */
export interface PredictionBufferOptions {
  /** Most pending inputs kept; recording beyond it drops the oldest (counted in droppedCount). Default 512. */
  readonly capacity?: number;
  /** Sequence ring size; sequences wrap to 0 at it. Default 2^32 (unsigned 32-bit). */
  readonly sequenceModulus?: number;
}

/** Default {@link PredictionBufferOptions.capacity}: about 8.5 s of 60 Hz input. */
export const DEFAULT_PREDICTION_CAPACITY = 512;

/**
 * Client-side prediction buffer: keeps inputs the server has not acknowledged yet and replays them on top of each
 * authoritative state (server reconciliation). Bounded, so a silent server cannot make it grow without limit.
 */
export class PredictionBuffer<TInput, TState> {
  private readonly capacity: number;
  private readonly modulus: number;
  private entries: PredictionEntry<TInput, TState>[] = [];
  private lastRecorded: number | undefined;
  private lastAcknowledged: number | undefined;
  private dropped = 0;
  private stale = 0;

  constructor(options: PredictionBufferOptions = {}) {
    const capacity = options.capacity ?? DEFAULT_PREDICTION_CAPACITY;
    if (!Number.isSafeInteger(capacity) || capacity < 1) {
      throw new RangeError(`capacity must be a positive integer, got ${String(capacity)}`);
    }
    this.modulus = options.sequenceModulus ?? UINT32_SEQUENCE_MODULUS;
    assertSequenceModulus(this.modulus);
    this.capacity = capacity;
  }

  /** Number of recorded inputs still awaiting server acknowledgement. */
  get pendingCount(): number {
    return this.entries.length;
  }

  /** Inputs evicted unacknowledged because the buffer was full (the server stopped answering, or fell far behind). */
  get droppedCount(): number {
    return this.dropped;
  }

  /** reconcile() calls ignored because their acknowledgement was older than one already reconciled. */
  get staleCount(): number {
    return this.stale;
  }

  /** Sequence of the most recent record(), if any since construction or clear(). */
  get lastRecordedSequence(): number | undefined {
    return this.lastRecorded;
  }

  /** The pending entries, oldest first (a copy). */
  pending(): readonly PredictionEntry<TInput, TState>[] {
    return [...this.entries];
  }

  /** Stores an input and its predicted state. Throws on a malformed entry or a sequence not newer than the last. */
  record(entry: PredictionEntry<TInput, TState>): void {
    if (typeof entry !== 'object' || entry === null) {
      throw new TypeError('record() takes one object: { sequence, input, dt, predictedState }');
    }
    const sequence = assertSequence(entry.sequence, this.modulus, 'record(): sequence');
    if (typeof entry.dt !== 'number' || !Number.isFinite(entry.dt) || entry.dt < 0) {
      throw new RangeError(`record(): dt must be a finite number >= 0, got ${String(entry.dt)}`);
    }
    if (this.lastRecorded !== undefined && !isSequenceNewerOnRing(sequence, this.lastRecorded, this.modulus)) {
      throw new RangeError(
        `record(): sequence ${sequence} is not newer than the last recorded ${this.lastRecorded}; sequences must increase`,
      );
    }
    const oldest = this.entries[0];
    if (oldest !== undefined && !isSequenceNewerOnRing(sequence, oldest.sequence, this.modulus)) {
      throw new RangeError(
        `record(): sequence ${sequence} is more than half the sequence ring past the oldest pending ${oldest.sequence}`,
      );
    }
    if (this.entries.length >= this.capacity) {
      this.entries.shift();
      this.dropped += 1;
    }
    this.entries.push({ sequence, input: entry.input, dt: entry.dt, predictedState: entry.predictedState });
    this.lastRecorded = sequence;
  }

  /**
   * Drops every input the server has accounted for (sequence at or before `lastProcessedSequence`), then replays the
   * rest, oldest first, on top of `authoritativeState`. Returns the reconciled state, or `undefined` when the
   * acknowledgement is older than one already reconciled (an out-of-order snapshot): keep the current state then.
   */
  reconcile(args: ReconcileArgs<TInput, TState>): TState | undefined {
    if (typeof args !== 'object' || args === null) {
      throw new TypeError('reconcile() takes one object: { lastProcessedSequence, authoritativeState, applyInput }');
    }
    const acked = assertSequence(args.lastProcessedSequence, this.modulus, 'reconcile(): lastProcessedSequence');
    if (typeof args.applyInput !== 'function') {
      throw new TypeError('reconcile(): applyInput must be a function (state, input, dt) => state');
    }
    if (this.lastAcknowledged !== undefined && isSequenceNewerOnRing(this.lastAcknowledged, acked, this.modulus)) {
      this.stale += 1;
      return undefined;
    }
    this.lastAcknowledged = acked;
    const firstPending = this.entries.findIndex((e) => isSequenceNewerOnRing(e.sequence, acked, this.modulus));
    this.entries = firstPending < 0 ? [] : this.entries.slice(firstPending);
    let state = args.authoritativeState;
    for (const entry of this.entries) state = args.applyInput(state, entry.input, entry.dt);
    return state;
  }

  /** Forgets everything (pending inputs, last sequences); counters are kept. Use when a new session starts. */
  clear(): void {
    this.entries = [];
    this.lastRecorded = undefined;
    this.lastAcknowledged = undefined;
  }
}
