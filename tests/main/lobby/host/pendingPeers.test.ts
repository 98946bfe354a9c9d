import { describe, expect, it } from 'vitest';
import { PendingPeers, STALL_GRACE_MS, STALL_MS } from '../../../../main/lobby/host/pendingPeers';
import { ManualScheduler } from '../../../support/manualScheduler';
import type { Scheduler } from '../../../../main/base/scheduler';

/** The test's clock as a starved process reads it: `lagMs()` after each timer's due time. */
function lateClock(time: ManualScheduler, lagMs: () => number): Scheduler {
  return {
    now: () => time.now() + lagMs(),
    setTimer: (callback, delayMs) => time.setTimer(callback, delayMs),
    setRepeating: (callback, intervalMs) => time.setRepeating(callback, intervalMs),
    clearTimer: (handle) => time.clearTimer(handle),
  };
}

/** Slots on a manual clock; `lateBy(ms)` makes the host read the clock that much after each timer's due time. */
function pending(budget = 4, perSource = 2) {
  const time = new ManualScheduler();
  const expired: number[] = [];
  let lag = 0;
  const clock = lateClock(time, () => lag);
  const peers = new PendingPeers<string>({
    budget,
    perSource,
    deadlineMs: 3000,
    clock,
    onExpired: (id) => expired.push(id),
  });
  return { peers, time, clock, expired, lateBy: (ms: number) => (lag = ms) };
}

describe('pre-lobby slots', () => {
  it('drops a peer that stays silent past its deadline, with one timer for everyone', () => {
    const { peers, time, expired } = pending(8, 8);
    peers.add(1, '10.0.0.1');
    time.advance(1000);
    peers.add(2, '10.0.0.2');
    peers.add(3, '10.0.0.3');
    expect(time.pending).toBe(1);
    time.advance(2000);
    expect(expired).toEqual([1]);
    expect(peers.size).toBe(2);
    time.advance(1000);
    expect(expired).toEqual([1, 2, 3]);
    expect(time.pending).toBe(0);
  });

  it('gives a peer whose deadline passed while the host itself stalled a grace to be read, once the host runs', () => {
    const { peers, time, clock, expired, lateBy } = pending(8, 8);
    peers.add(1, 'guest');
    peers.add(2, 'silent');
    lateBy(STALL_MS + 1); // a starved process: its timer runs, and reads the clock, a stall after the deadline
    time.advance(3000);
    expect(expired).toEqual([]); // nobody is dropped before what waits in the socket is read
    expect(peers.get(1)?.deadline).toBe(clock.now() + STALL_GRACE_MS);
    expect(peers.hear(1)).toBe(true); // its hello, read after the timer
    expect(peers.remove(1)).toBe(true); // admitted
    lateBy(0);
    time.advance(STALL_MS + 1 + STALL_GRACE_MS - 1);
    expect(expired).toEqual([]);
    time.advance(1); // the grace, on a punctual host: the silent one goes
    expect(expired).toEqual([2]);
    expect(time.pending).toBe(0);
  });

  it('drops a silent peer at its deadline when the timer is late by less than a stall', () => {
    const { peers, time, expired, lateBy } = pending(8, 8);
    peers.add(1, 'silent');
    lateBy(STALL_MS);
    time.advance(3000);
    expect(expired).toEqual([1]);
  });

  it('clears the deadline on every way out: admitted, gone, refused and gone, closed', () => {
    const { peers, time, expired } = pending(8, 8);
    peers.add(1, 'a');
    peers.add(2, 'b');
    peers.add(3, 'c');
    expect(peers.hear(1)).toBe(true);
    expect(peers.remove(1)).toBe(true); // admitted
    expect(peers.remove(2)).toBe(true); // disconnected
    peers.leave(3); // refused: still holds its slot until the transport drops it
    expect(peers.remove(3)).toBe(true);
    expect(time.pending).toBe(0);
    peers.add(4, 'd');
    peers.clear(); // the room closed
    expect(time.pending).toBe(0);
    time.advance(10_000);
    expect(expired).toEqual([]);
    expect(peers.remove(99)).toBe(false);
  });

  it('makes way for a newcomer: the oldest silent peer goes, never the newcomer', () => {
    const { peers } = pending(3, 8);
    peers.add(1, 'a');
    peers.add(2, 'b');
    peers.hear(1);
    peers.add(3, 'c');
    expect(peers.add(4, 'd')).toEqual([2]);
    expect(peers.get(1)?.stage).toBe('heard');
    expect(peers.get(4)?.stage).toBe('silent');
    expect(peers.size).toBe(3);
  });

  it('drops a refused peer before anyone still trying, and a talking one only when all talk', () => {
    const { peers } = pending(2, 8);
    peers.add(1, 'a');
    peers.add(2, 'b');
    peers.leave(2);
    expect(peers.add(3, 'c')).toEqual([2]);
    peers.hear(1);
    peers.hear(3);
    expect(peers.add(4, 'd')).toEqual([1]);
  });

  it('holds at most perSource silent peers from one address', () => {
    const { peers } = pending(8, 2);
    peers.add(1, 'spam');
    peers.add(2, 'spam');
    peers.add(3, 'friend');
    expect(peers.add(4, 'spam')).toEqual([1]);
    peers.hear(2);
    // A peer that spoke no longer counts as silent.
    expect(peers.add(5, 'spam')).toEqual([]);
    expect([...[2, 3, 4, 5]].every((id) => peers.get(id))).toBe(true);
  });

  it('hands out a challenge once, and hears one hello per connection', () => {
    const { peers } = pending();
    peers.add(1, 'a');
    expect(peers.hear(1)).toBe(true);
    expect(peers.hear(1)).toBe(false);
    peers.challenge(1, 'nonce');
    expect(peers.takeChallenge(1)).toBe('nonce');
    expect(peers.takeChallenge(1)).toBeUndefined();
    expect(peers.hear(7)).toBe(false);
  });

  it('refuses nonsensical budgets', () => {
    expect(() => pending(0, 1)).toThrow(/budget/);
    expect(() => pending(1, 0)).toThrow(/perSource/);
  });
});
