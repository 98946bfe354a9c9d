import { describe, expect, it } from 'vitest';
import { ReliableSender } from '../../../../main/net/v1/reliableSender';
import { SendQueueFullError } from '../../../../main/net/errors';

const body = (n: number) => new Uint8Array([n & 0xff]);

describe('ReliableSender', () => {
  it('numbers messages from 0 and never has more than 33 consecutive sequences in flight', () => {
    const s = new ReliableSender();
    for (let i = 0; i < 100; i++) s.enqueue(body(i));
    const first = s.takeSendable(0);
    expect(first.map((e) => e.sequence)).toEqual([...Array(33).keys()]);
    expect(s.inFlightCount).toBe(33);
    expect(s.queuedCount).toBe(67);
    expect(s.takeSendable(0)).toEqual([]);
  });

  it('frees named sequences from ack and bitfield, then lets the window slide', () => {
    const s = new ReliableSender();
    for (let i = 0; i < 40; i++) s.enqueue(body(i));
    s.takeSendable(0);
    // ack 5 with bits for 4 and 3 (bits 0 and 1)
    expect(s.acknowledge(5, 0b11)).toBe(3);
    // 0 is still outstanding, so the window (anchored at the oldest) has no room yet
    expect(s.takeSendable(0)).toEqual([]);
    expect(s.acknowledge(2, 0b11)).toBe(3); // 2, 1, 0
    expect(s.takeSendable(0).map((e) => e.sequence)).toEqual([33, 34, 35, 36, 37, 38]);
    expect(s.oldest()?.sequence).toBe(6);
  });

  it('ignores acks for sequences it does not have in flight', () => {
    const s = new ReliableSender();
    s.enqueue(body(0));
    s.takeSendable(0);
    expect(s.acknowledge(0xffffffff, 0)).toBe(0);
    expect(s.acknowledge(7, 0xffffffff)).toBe(1); // bit 6 names 0
    expect(s.acknowledge(0, 0)).toBe(0);
  });

  it('retransmits on timeout, backing off per expired timeout', () => {
    const s = new ReliableSender();
    s.enqueue(body(1));
    s.takeSendable(10);
    const timeout = (timeouts: number) => 0.25 * 2 ** timeouts;
    expect(s.dueForRetransmit(10.125, timeout)).toEqual([]);
    expect(s.nextDue(timeout)).toBe(10.25);
    const due = s.dueForRetransmit(10.25, timeout);
    expect(due).toHaveLength(1);
    expect(due[0]).toMatchObject({ attempts: 2, timeouts: 1 });
    expect(s.dueForRetransmit(10.5, timeout)).toEqual([]); // now waits 0.5
    expect(s.dueForRetransmit(10.75, timeout)).toHaveLength(1);
    expect(s.oldest()?.firstSent).toBe(10);
  });

  it('fast-retransmits a message once three newer ones are acknowledged, at most once per interval', () => {
    const s = new ReliableSender();
    for (let i = 0; i < 6; i++) s.enqueue(body(i));
    s.takeSendable(0);
    const never = () => Infinity;
    s.acknowledge(2, 0b11); // 2, 1, 0 arrived
    expect(s.dueForRetransmit(0.5, never, 0.125)).toEqual([]); // nothing newer than 2 acked yet
    s.acknowledge(5, 0b1); // 5, 4 arrived, 3 did not: overtaken by 2 — not yet evidence
    expect(s.dueForRetransmit(0.5, never, 0.125)).toEqual([]);
    s.enqueue(body(6));
    s.takeSendable(0.02);
    s.acknowledge(6, 0);
    expect(s.dueForRetransmit(0.0625, never, 0.125)).toEqual([]); // too soon after sending
    expect(s.dueForRetransmit(0.125, never, 0.125).map((e) => e.sequence)).toEqual([3]);
    expect(s.dueForRetransmit(0.1875, never, 0.125)).toEqual([]);
    expect(s.dueForRetransmit(0.25, never, 0.125).map((e) => e.sequence)).toEqual([3]);
    expect(s.oldest()).toMatchObject({ sequence: 3, attempts: 3, timeouts: 0 }); // fast retransmits do not back off
  });

  it('refuses to queue beyond maxQueued past the window without losing what was queued', () => {
    // Room left in the window counts whether or not the caller has moved the bodies into it yet.
    const s = new ReliableSender({ maxQueued: 3, window: 4 });
    for (let i = 0; i < 7; i++) s.enqueue(body(i));
    expect(s.canQueue(1)).toBe(false);
    expect(() => s.enqueue(body(9))).toThrow(SendQueueFullError);
    expect(s.takeSendable(0).map((e) => e.body[0])).toEqual([0, 1, 2, 3]);
    expect(s.queuedCount).toBe(3);
    expect(() => s.enqueue(body(9))).toThrow(SendQueueFullError); // the window is full now
    s.acknowledge(1, 0b1); // 0 and 1 acknowledged: two sequences of room
    expect(s.canQueue(2)).toBe(true);
    expect(s.canQueue(3)).toBe(false);
    expect(s.takeSendable(0).map((e) => e.body[0])).toEqual([4, 5]);
  });

  it('keeps the window across the 2^32 wrap', () => {
    const s = new ReliableSender({ startSequence: 0xfffffff0 });
    for (let i = 0; i < 40; i++) s.enqueue(body(i));
    const sent = s.takeSendable(0).map((e) => e.sequence);
    expect(sent).toHaveLength(33);
    expect(sent[15]).toBe(0xffffffff);
    expect(sent[16]).toBe(0);
    expect(s.acknowledge(16, 0xffffffff)).toBe(33);
    expect(s.takeSendable(0).map((e) => e.sequence)).toEqual([17, 18, 19, 20, 21, 22, 23]);
  });

  it('drains a 10,000-message backlog in order with bounded memory for the consumed part', () => {
    const s = new ReliableSender();
    for (let i = 0; i < 10_000; i++) s.enqueue(body(i));
    const seen: number[] = [];
    while (s.queuedCount + s.inFlightCount > 0) {
      for (const e of s.takeSendable(0)) seen.push(e.sequence);
      const oldest = s.oldest();
      if (oldest) s.acknowledge(oldest.sequence + 32, 0xffffffff);
    }
    expect(seen).toEqual([...Array(10_000).keys()]);
  });
});

describe('ReliableSender.admitSendable', () => {
  it('admits what the window takes and names the admitted entries by sequence, across the 2^32 wrap', () => {
    const s = new ReliableSender({ startSequence: 0xffffffff - 1, window: 4, ackReach: 4 });
    for (let i = 0; i < 6; i++) s.enqueue(body(i));
    expect(s.admitSendable(5)).toBe(4);
    expect(s.windowEnd).toBe(2);
    const admitted = [-4, -3, -2, -1].map((k) => s.entryAt(s.windowEnd + k));
    expect(admitted.map((e) => e?.sequence)).toEqual([0xfffffffe, 0xffffffff, 0, 1]);
    expect(admitted.map((e) => e?.body[0])).toEqual([0, 1, 2, 3]);
    expect(admitted.every((e) => e?.firstSent === 5 && e.attempts === 1)).toBe(true);
    expect(s.admitSendable(6)).toBe(0); // window full
    expect(s.queuedCount).toBe(2);
  });

  it('names nothing for a freed sequence or one that only shares a ring slot', () => {
    const s = new ReliableSender({ window: 4, ackReach: 4 });
    for (let i = 0; i < 3; i++) s.enqueue(body(i));
    s.admitSendable(0);
    expect(s.acknowledge(0, 0)).toBe(1);
    expect(s.entryAt(0)).toBeUndefined();
    expect(s.entryAt(1)?.sequence).toBe(1);
    expect(s.entryAt(1 + 4)).toBeUndefined(); // same slot as 1, not in flight
    expect(s.entryAt(9)).toBeUndefined();
  });
});
