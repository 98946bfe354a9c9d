import { describe, expect, it } from 'vitest';
import { Channel } from '../../../../shared/net/channel';
import { LossWindow, MinWindow, RateWindow } from '../../../../main/net/v1/netStats';
import { DropReason, TrafficCounters } from '../../../../main/net/v1/stats';
import { SimulatedPair } from '../../../support/simulatedLink';

describe('RateWindow', () => {
  it('reports per-second rates of the last complete window only', () => {
    const c = { datagramsSent: 0, datagramsReceived: 0, bytesSent: 0, bytesReceived: 0 };
    const w = new RateWindow(0, c, 1);
    c.datagramsSent = 50;
    c.bytesSent = 5000;
    w.roll(0.5, c);
    expect(w.perSecond.datagramsSent).toBe(0); // window not complete yet
    c.datagramsSent = 100;
    c.bytesSent = 10_000;
    w.roll(1, c);
    expect(w.perSecond).toEqual({ datagramsSent: 100, datagramsReceived: 0, bytesSent: 10_000, bytesReceived: 0 });
    c.datagramsSent = 120;
    w.roll(3, c);
    expect(w.perSecond.datagramsSent).toBe(10);
  });
});

describe('LossWindow', () => {
  it('reads lost over sent, whatever the batch sizes', () => {
    const l = new LossWindow(0);
    expect(l.fraction(0)).toBe(0); // nothing reached an outcome yet
    l.record(0.1, 30, 6); // one ack freeing many units at once weighs as many datagrams
    l.record(0.2, 1, 0);
    l.record(0.3, 9, 0);
    expect(l.fraction(0.3)).toBeCloseTo(6 / 40, 10);
  });

  it('forgets outcomes older than the window, and empties after a long silence', () => {
    const l = new LossWindow(0, 4, 0.5); // a 2 s window
    l.record(0, 10, 10);
    l.record(1.6, 10, 0);
    expect(l.fraction(1.9)).toBeCloseTo(0.5, 10);
    expect(l.fraction(2.1)).toBe(0); // the first bucket fell out
    l.record(2.2, 4, 1);
    expect(l.fraction(100)).toBe(0);
  });

  it('ignores a clock that goes back or is not a number, and never reads above 1', () => {
    const l = new LossWindow(10);
    l.record(10, 2, 1);
    l.record(5, 2, 1);
    l.record(Number.NaN, 2, 1);
    expect(l.fraction(10)).toBeCloseTo(0.5, 10);
    l.record(10, 0, 5);
    expect(l.fraction(10)).toBe(1);
  });
});

describe('MinWindow', () => {
  it('reads the least sample of the window, which a stall cannot raise', () => {
    const w = new MinWindow(0, 10, 1);
    expect(w.at(0)).toBeUndefined();
    w.add(0.2, 0.004);
    w.add(1.2, 0.25); // a stalled pong
    w.add(2.2, 0.005);
    expect(w.at(2.5)).toBe(0.004);
    w.add(3, Number.NaN);
    w.add(3, Infinity);
    expect(w.at(3)).toBe(0.004);
  });

  it('follows a path that changed once the old samples age out, and empties after a silence', () => {
    const w = new MinWindow(0, 4, 1); // a 4 s window
    w.add(0.5, 0.002); // a LAN path
    for (let t = 1.5; t < 4; t += 1) w.add(t, 0.06); // then a relay's
    expect(w.at(3.9)).toBe(0.002);
    expect(w.at(4.1)).toBe(0.06);
    expect(w.at(100)).toBeUndefined();
    w.add(50, 0.001); // a clock that went back is ignored as a bucket move, its sample still counts
    expect(w.at(100)).toBe(0.001);
  });
});

describe('Connection stats', () => {
  it('reports RTT, jitter, rates and a loss estimate near the link loss', () => {
    const pair = new SimulatedPair({ loss: 0.1, latency: 0.02, jitter: 0.005 }, { latency: 0.02, jitter: 0.005 }, 9);
    for (let t = 0; t < 400; t++) {
      for (let i = 0; i < 5; i++) pair.a.send('n', { t, i }, Channel.RELIABLE_ORDERED);
      pair.run(0.05);
    }
    pair.run(2, 0.005, () => pair.a.pendingReliable === 0);
    const stats = pair.a.stats();
    expect(stats.rtt).toBeGreaterThan(0.035);
    expect(stats.rtt).toBeLessThan(0.06);
    expect(stats.minRtt).toBeGreaterThanOrEqual(0.03);
    expect(stats.minRtt).toBeLessThanOrEqual(stats.rtt!);
    expect(stats.jitter).toBeGreaterThan(0);
    expect(stats.loss).toBeGreaterThan(0.07);
    expect(stats.loss).toBeLessThan(0.13);
    expect(stats.retransmits).toBeGreaterThan(100);
    expect(stats.pendingReliable).toBe(0);
    const clean = new SimulatedPair({ latency: 0.02 }, { latency: 0.02 }, 9);
    for (let t = 0; t < 100; t++) {
      clean.a.send('n', { t }, Channel.RELIABLE_ORDERED);
      clean.run(0.05);
    }
    expect(clean.a.stats().loss).toBe(0);
    expect(clean.a.stats().packetsSentPerSecond).toBeGreaterThan(15);
    expect(clean.b.stats().packetsReceivedPerSecond).toBeGreaterThan(15);
  });
});

describe('TrafficCounters', () => {
  it('counts drops per reason and in total', () => {
    const counters = new TrafficCounters();
    expect(counters.droppedTotal).toBe(0);
    counters.drop(DropReason.BAD_TAG);
    counters.drop(DropReason.BAD_TAG);
    counters.drop(DropReason.TOO_SHORT);
    expect(counters.dropped[DropReason.BAD_TAG]).toBe(2);
    expect(counters.dropped[DropReason.TOO_SHORT]).toBe(1);
    expect(counters.droppedTotal).toBe(3);
  });
});
