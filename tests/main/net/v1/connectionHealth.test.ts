import { describe, expect, it } from 'vitest';
import { ConnectionHealth } from '../../../../main/net/v1/connectionHealth';
import { TrafficCounters } from '../../../../main/net/v1/stats';

const health = () => new ConnectionHealth({ clock: () => 10 }, new TrafficCounters());
const sent = (attempts: number) => ({ attempts, firstSent: 9.9 });

describe('ConnectionHealth loss accounting', () => {
  it('counts every transmission of an acknowledged unit but the last as lost', () => {
    const h = health();
    for (let i = 0; i < 90; i++) h.acknowledged(sent(1), 10);
    for (let i = 0; i < 10; i++) h.acknowledged(sent(2), 10);
    expect(h.stats(0).loss).toBeCloseTo(10 / 110, 9);
  });

  it('counts a redundant copy beside the last transmission at its expected loss, 2p/(1+p), not as one lost', () => {
    const h = health();
    for (let i = 0; i < 90; i++) h.acknowledged(sent(1), 10);
    for (let i = 0; i < 10; i++) h.acknowledged(sent(2), 10);
    const p = h.stats(0).loss;
    h.acknowledged(sent(2), 10, 1, true); // original lost; re-sent with a copy; one of the two arrived
    expect(h.stats(0).loss).toBeCloseTo((10 + 1 + (2 * p) / (1 + p)) / (110 + 3), 9);
    h.acknowledged(sent(3), 10, 1, false); // the pair was lost too: a third transmission arrived
    expect(h.stats(0).loss).toBeCloseTo((10 + 1 + (2 * p) / (1 + p) + 3) / (110 + 3 + 4), 9);
  });

  it('leaves out a retransmission found spurious: the original arrived, the retransmission has no known fate', () => {
    const h = health();
    for (let i = 0; i < 9; i++) h.acknowledged(sent(1), 10);
    h.acknowledgedEarlier(sent(2), 10);
    expect(h.stats(0).loss).toBe(0);
  });
});

describe('ConnectionHealth heartbeats', () => {
  const at = (follower: boolean) => {
    let now = 0;
    const h = new ConnectionHealth({ clock: () => now, followPeerPings: follower }, new TrafficCounters());
    return { h, set: (t: number) => (now = t) };
  };

  it('pings at once, then every interval on its own timer', () => {
    const { h } = at(false);
    expect(h.tick(0)).toBe(1);
    expect(h.tick(0.5)).toBeUndefined();
    expect(h.tick(1)).toBe(2);
  });

  it("rides a ping of its own on the pong to the peer's ping once half an interval has passed, not sooner", () => {
    const { h } = at(false);
    expect(h.tick(0)).toBe(1);
    expect(h.pingHeard(0.4)).toBeUndefined();
    expect(h.pingHeard(0.5)).toBe(2);
    expect(h.tick(1.2)).toBeUndefined(); // the interval runs from the ping that rode the pong
    expect(h.tick(1.5)).toBe(3);
  });

  it('as a follower, pings only beside pongs while the peer keeps pinging, and on its timer once it stops', () => {
    const { h } = at(true);
    expect(h.tick(0)).toBe(1); // nothing heard yet: its own timer
    expect(h.pingHeard(0.9)).toBe(2);
    for (const t of [1.9, 2.2, 2.25]) expect(h.tick(t)).toBeUndefined(); // the peer's next ping is expected
    expect(h.pingHeard(1.9)).toBe(3);
    // The peer falls silent: 1.5 intervals after its last ping the follower pings on its own again.
    expect(h.tick(3.3)).toBeUndefined();
    expect(h.tick(3.45)).toBe(4);
    expect(h.tick(4.45)).toBe(5);
  });
});

describe('ConnectionHealth silence', () => {
  const TIMEOUT = 5;
  const REASON = `timed out: nothing heard for ${TIMEOUT} s`;
  /** Service checks every `step` seconds over [from, to], as the endpoint's timer makes them; the verdicts given. */
  const checks = (h: ConnectionHealth, from: number, to: number, step = 0.01) => {
    const verdicts: Array<[number, string]> = [];
    for (let i = 0; from + i * step <= to + 1e-9; i++) {
      const t = Math.round((from + i * step) * 1e6) / 1e6;
      const verdict = h.silence(t);
      if (verdict) verdicts.push([t, verdict]);
    }
    return verdicts;
  };
  const fresh = () => new ConnectionHealth({ clock: () => 0, timeout: TIMEOUT }, new TrafficCounters());

  it('drops a peer silent for `timeout` at the check after the first that finds it so', () => {
    const h = fresh();
    h.heard(0);
    expect(checks(h, 0.01, 5)).toEqual([]);
    expect(h.silence(5.01)).toBeUndefined(); // silent at one check: the socket may hold what it sent
    expect(h.silence(5.02)).toBe(REASON);
  });

  it('keeps a peer whose datagrams waited while our event loop was blocked past its timeout', () => {
    const h = fresh();
    h.heard(0);
    expect(checks(h, 0.01, 0.5)).toEqual([]);
    // Blocked from 0.5 s to 6.5 s: the timer fires first, then the poll phase reads what the peer sent meanwhile.
    expect(h.silence(6.5)).toBeUndefined();
    h.heard(6.5);
    expect(checks(h, 6.51, 11)).toEqual([]);
  });

  it('still drops a peer that really went silent during our stall, at the check after it', () => {
    const h = fresh();
    h.heard(0);
    expect(h.silence(6.5)).toBeUndefined();
    expect(h.silence(6.51)).toBe(REASON);
  });

  it('needs two silent checks in a row again after the peer is heard between them', () => {
    const h = fresh();
    h.heard(0);
    expect(h.silence(5.5)).toBeUndefined();
    h.heard(5.505);
    expect(h.silence(5.51)).toBeUndefined();
    expect(h.silence(10.6)).toBeUndefined(); // silent again: one check is not a verdict
    expect(h.silence(10.61)).toBe(REASON);
  });

  it('gives its verdict to an owner that checks rarely, one check late', () => {
    const h = fresh();
    h.heard(0);
    expect(checks(h, 2, 6, 2)).toEqual([]);
    expect(h.silence(8)).toBe(REASON);
  });
});
