import { describe, expect, it } from 'vitest';
import { INPUT_QUEUE_CAPACITY, InputQueue, MAX_INPUT_DEBT } from '../../../../main/game/host/inputQueue';
import { tagInputCodec } from '../../../../shared/games/tag/wire/tagInput';
import type { PlayerInput } from '../../../../shared/games/tag/types';

const input = (sequence: number, moveX = 1, tag = false): PlayerInput => ({ sequence, moveX, moveY: 0, tag });

/** Applies `n` ticks and returns the sequences the host simulated (a repeat shows the repeated sequence). */
function drain(queue: InputQueue<PlayerInput>, n: number): number[] {
  return Array.from({ length: n }, () => queue.next().input.sequence);
}

describe('InputQueue', () => {
  it('applies each sequence once and in order, whatever order and how many copies arrive', () => {
    const q = new InputQueue(tagInputCodec);
    // Redundant messages [1,2,3], [2,3,4], [3,4,5] with the middle one reordered after the last.
    for (const s of [1, 2, 3]) q.offer(input(s), 0);
    for (const s of [3, 4, 5]) q.offer(input(s), 0);
    for (const s of [2, 3, 4]) q.offer(input(s), 0);
    expect(drain(q, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(q.lastProcessedSequence).toBe(5);
    expect(q.counters).toMatchObject({ accepted: 5, duplicate: 4, stale: 0 });
  });

  it('drops inputs at or before the last processed sequence as stale', () => {
    const q = new InputQueue(tagInputCodec);
    q.offer(input(7), 0);
    q.next();
    expect(q.offer(input(7), 0)).toBe('stale');
    expect(q.offer(input(3), 0)).toBe('stale');
    expect(q.offer(input(8), 0)).toBe('accepted');
    expect(q.counters.stale).toBe(2);
    expect(q.depth).toBe(1);
  });

  it('is neutral and owes nothing before the first input', () => {
    const q = new InputQueue(tagInputCodec);
    const tick = q.next();
    expect(tick.input).toMatchObject({ moveX: 0, moveY: 0, tag: false });
    expect(tick.arrivedAt).toBeUndefined();
    expect(q.lastProcessedSequence).toBeUndefined();
    q.offer(input(1), 0);
    q.offer(input(2), 0);
    expect(drain(q, 2)).toEqual([1, 2]); // nothing skipped
    expect(q.counters.repeated + q.counters.skipped).toBe(0);
  });

  it('repeats the last movement (never its tag) when starved, then skips one input to pay it back', () => {
    const q = new InputQueue(tagInputCodec);
    q.offer(input(1, 0.5, true), 10);
    expect(q.next()).toEqual({ input: input(1, 0.5, true), arrivedAt: 10 });
    const repeat = q.next();
    expect(repeat.input).toMatchObject({ moveX: 0.5, tag: false });
    expect(repeat.arrivedAt).toBeUndefined();
    expect(q.lastProcessedSequence).toBe(1); // a repeat acknowledges nothing
    // The late inputs arrive together: one is skipped so the queue does not stay a tick deeper.
    q.offer(input(2, 0.5), 11);
    q.offer(input(3, 0.5), 11);
    expect(q.next().input.sequence).toBe(3);
    expect(q.lastProcessedSequence).toBe(3);
    expect(q.counters).toMatchObject({ repeated: 1, skipped: 1 });
  });

  it('keeps the tag of a skipped input for the next applied one', () => {
    const q = new InputQueue(tagInputCodec);
    q.offer(input(1), 0);
    q.next();
    q.next(); // starved: debt 1
    q.offer(input(2, 1, true), 0);
    q.offer(input(3, 1, false), 0);
    expect(q.next().input).toMatchObject({ sequence: 3, tag: true });
    expect(q.next().input.tag).toBe(false);
  });

  it('caps the debt so a long stall does not swallow many inputs later', () => {
    const q = new InputQueue(tagInputCodec);
    q.offer(input(1), 0);
    q.next();
    drain(q, 50);
    for (let s = 2; s <= 8; s += 1) q.offer(input(s), 0);
    // Seven waiting, debt capped at MAX_INPUT_DEBT (4): 2..5 are skipped, 6 applied, then 7 and 8.
    expect(MAX_INPUT_DEBT).toBe(4);
    expect(drain(q, 3)).toEqual([6, 7, 8]);
    expect(q.counters.skipped).toBe(MAX_INPUT_DEBT);
  });

  it('bounds the queue: beyond capacity the oldest is dropped, acknowledged, and its tag carried', () => {
    const q = new InputQueue(tagInputCodec);
    q.offer(input(1, 1, true), 0);
    for (let s = 2; s <= INPUT_QUEUE_CAPACITY + 3; s += 1) q.offer(input(s), 0);
    expect(q.depth).toBe(INPUT_QUEUE_CAPACITY);
    expect(q.counters.overflow).toBe(3);
    expect(q.lastProcessedSequence).toBe(3);
    expect(q.next().input).toMatchObject({ sequence: 4, tag: true });
  });

  it('rejects a nonsensical capacity', () => {
    expect(() => new InputQueue(tagInputCodec, 0)).toThrow(RangeError);
  });
});
