import { describe, expect, it } from 'vitest';
import { PredictionBuffer, type PredictionEntry } from '../../../shared/net/predictionBuffer';

interface Input {
  dx: number;
}
interface State {
  x: number;
}

/** Pure replay: moves by dx per second; logs calls so tests can see exactly what was replayed. */
function makeApply(log: number[] = []) {
  return (state: State, input: Input, dt: number): State => {
    log.push(input.dx);
    return { x: state.x + input.dx * dt };
  };
}

function recordRun(buffer: PredictionBuffer<Input, State>, first: number, count: number, modulus = 2 ** 32): void {
  let x = 0;
  for (let i = 0; i < count; i += 1) {
    const input = { dx: i + 1 };
    x += input.dx * 0.5;
    buffer.record({ sequence: (first + i) % modulus, input, dt: 0.5, predictedState: { x } });
  }
}

describe('PredictionBuffer.record', () => {
  it('takes one named-field object, so dt and predictedState cannot be swapped', () => {
    const buffer = new PredictionBuffer<Input, State>();
    buffer.record({ sequence: 1, input: { dx: 1 }, dt: 0.016, predictedState: { x: 1 } });
    // @ts-expect-error positional arguments (the reference's order) are rejected by the type checker
    expect(() => buffer.record(2, { dx: 1 }, 0.016, { x: 2 })).toThrow(TypeError);
    // @ts-expect-error a state where dt belongs is a type error, and a run-time error too
    expect(() => buffer.record({ sequence: 3, input: { dx: 1 }, dt: { x: 3 }, predictedState: 0.016 })).toThrow(
      /dt must be a finite number/,
    );
    expect(buffer.pendingCount).toBe(1);
  });

  it('rejects malformed sequences and dt', () => {
    const buffer = new PredictionBuffer<Input, State>();
    const entry = (sequence: number, dt = 0.1): PredictionEntry<Input, State> => ({
      sequence,
      input: { dx: 0 },
      dt,
      predictedState: { x: 0 },
    });
    expect(() => buffer.record(entry(-1))).toThrow(/sequence must be an integer/);
    expect(() => buffer.record(entry(2 ** 32))).toThrow(RangeError);
    expect(() => buffer.record(entry(1.5))).toThrow(RangeError);
    expect(() => buffer.record(entry(1, -0.1))).toThrow(/dt/);
    expect(() => buffer.record(entry(1, Number.NaN))).toThrow(/dt/);
    expect(buffer.pendingCount).toBe(0);
  });

  it('requires sequences to increase, with a clear error', () => {
    const buffer = new PredictionBuffer<Input, State>();
    recordRun(buffer, 10, 1);
    expect(() => recordRun(buffer, 10, 1)).toThrow(/not newer than the last recorded 10/);
    expect(() => recordRun(buffer, 9, 1)).toThrow(/sequences must increase/);
    recordRun(buffer, 12, 1); // gaps are fine
    expect(buffer.lastRecordedSequence).toBe(12);
    expect(buffer.pendingCount).toBe(2);
  });

  it('keeps requiring increase after reconcile empties it, until clear()', () => {
    const buffer = new PredictionBuffer<Input, State>();
    recordRun(buffer, 1, 3);
    buffer.reconcile({ lastProcessedSequence: 3, authoritativeState: { x: 0 }, applyInput: makeApply() });
    expect(buffer.pendingCount).toBe(0);
    expect(() => recordRun(buffer, 2, 1)).toThrow(RangeError);
    buffer.clear();
    recordRun(buffer, 2, 1);
    expect(buffer.pending().map((e) => e.sequence)).toEqual([2]);
  });
});

describe('PredictionBuffer.reconcile', () => {
  it('replays every input when none is acknowledged', () => {
    const buffer = new PredictionBuffer<Input, State>();
    recordRun(buffer, 5, 3);
    const log: number[] = [];
    const state = buffer.reconcile({
      lastProcessedSequence: 4,
      authoritativeState: { x: 100 },
      applyInput: makeApply(log),
    });
    expect(log).toEqual([1, 2, 3]);
    expect(state).toEqual({ x: 100 + 0.5 + 1 + 1.5 });
    expect(buffer.pendingCount).toBe(3);
  });

  it('drops acknowledged inputs and replays the rest in order when partially acknowledged', () => {
    const buffer = new PredictionBuffer<Input, State>();
    recordRun(buffer, 1, 4);
    const log: number[] = [];
    const state = buffer.reconcile({
      lastProcessedSequence: 2,
      authoritativeState: { x: 10 },
      applyInput: makeApply(log),
    });
    expect(log).toEqual([3, 4]);
    expect(state).toEqual({ x: 10 + 1.5 + 2 });
    expect(buffer.pending().map((e) => e.sequence)).toEqual([3, 4]);
  });

  it('returns the authoritative state untouched when everything is acknowledged', () => {
    const buffer = new PredictionBuffer<Input, State>();
    recordRun(buffer, 1, 4);
    const authoritative = { x: 7 };
    const log: number[] = [];
    expect(
      buffer.reconcile({ lastProcessedSequence: 4, authoritativeState: authoritative, applyInput: makeApply(log) }),
    ).toBe(authoritative);
    expect(log).toEqual([]);
    expect(buffer.pendingCount).toBe(0);
  });

  it('ignores an out-of-order (older) acknowledgement and counts it', () => {
    const buffer = new PredictionBuffer<Input, State>();
    recordRun(buffer, 1, 5);
    const apply = makeApply();
    buffer.reconcile({ lastProcessedSequence: 3, authoritativeState: { x: 0 }, applyInput: apply });
    expect(
      buffer.reconcile({ lastProcessedSequence: 2, authoritativeState: { x: 0 }, applyInput: apply }),
    ).toBeUndefined();
    expect(buffer.staleCount).toBe(1);
    expect(buffer.pendingCount).toBe(2);
    // The same acknowledgement again is not stale (the server may resend state without new inputs).
    expect(buffer.reconcile({ lastProcessedSequence: 3, authoritativeState: { x: 1 }, applyInput: apply })).toEqual({
      x: 1 + 2 + 2.5,
    });
  });

  it('takes an options object and validates it', () => {
    const buffer = new PredictionBuffer<Input, State>();
    // @ts-expect-error positional arguments are rejected
    expect(() => buffer.reconcile(1, { x: 0 }, makeApply())).toThrow(TypeError);
    expect(() =>
      buffer.reconcile({ lastProcessedSequence: -5, authoritativeState: { x: 0 }, applyInput: makeApply() }),
    ).toThrow(/lastProcessedSequence/);
    expect(() =>
      // @ts-expect-error applyInput must be a function
      buffer.reconcile({ lastProcessedSequence: 1, authoritativeState: { x: 0 }, applyInput: 3 }),
    ).toThrow(/applyInput/);
  });
});

describe('PredictionBuffer bounds and wraparound', () => {
  it('drops the oldest beyond capacity and counts the drops', () => {
    const buffer = new PredictionBuffer<Input, State>({ capacity: 3 });
    recordRun(buffer, 1, 10);
    expect(buffer.pendingCount).toBe(3);
    expect(buffer.droppedCount).toBe(7);
    expect(buffer.pending().map((e) => e.sequence)).toEqual([8, 9, 10]);
  });

  it('rejects a nonsensical capacity or modulus', () => {
    expect(() => new PredictionBuffer({ capacity: 0 })).toThrow(RangeError);
    expect(() => new PredictionBuffer({ capacity: 2.5 })).toThrow(RangeError);
    expect(() => new PredictionBuffer({ sequenceModulus: 2 })).toThrow(RangeError);
  });

  it('records and reconciles across the 2^32 wrap', () => {
    const buffer = new PredictionBuffer<Input, State>();
    recordRun(buffer, 2 ** 32 - 2, 5); // sequences 4294967294, 4294967295, 0, 1, 2
    expect(buffer.pending().map((e) => e.sequence)).toEqual([2 ** 32 - 2, 2 ** 32 - 1, 0, 1, 2]);
    const log: number[] = [];
    buffer.reconcile({ lastProcessedSequence: 2 ** 32 - 1, authoritativeState: { x: 0 }, applyInput: makeApply(log) });
    expect(log).toEqual([3, 4, 5]);
    log.length = 0;
    buffer.reconcile({ lastProcessedSequence: 0, authoritativeState: { x: 0 }, applyInput: makeApply(log) });
    expect(log).toEqual([4, 5]);
    expect(
      buffer.reconcile({ lastProcessedSequence: 2 ** 32 - 1, authoritativeState: { x: 0 }, applyInput: makeApply() }),
    ).toBe(undefined);
  });

  it('wraps at a configured modulus and refuses a jump of half the ring or more', () => {
    const buffer = new PredictionBuffer<Input, State>({ sequenceModulus: 16 });
    recordRun(buffer, 14, 4, 16); // 14, 15, 0, 1
    expect(buffer.pending().map((e) => e.sequence)).toEqual([14, 15, 0, 1]);
    expect(() => recordRun(buffer, 16, 1, 1000)).toThrow(/sequence must be an integer in \[0, 16\)/);
    // 7 is newer than the last (1) but wraps past the oldest pending (14): ambiguous, so refused.
    expect(() => recordRun(buffer, 7, 1, 16)).toThrow(/half the sequence ring/);
    const log: number[] = [];
    buffer.reconcile({ lastProcessedSequence: 15, authoritativeState: { x: 0 }, applyInput: makeApply(log) });
    expect(log).toEqual([3, 4]);
  });
});
