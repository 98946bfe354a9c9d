import { describe, expect, it } from 'vitest';
import { Channel } from '../../../../shared/net/channel';
import { LossEstimator, RateWindow } from '../../../../main/net/v1/netStats';
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

describe('LossEstimator', () => {
  it('moves towards the observed loss fraction', () => {
    const l = new LossEstimator(0.05);
    for (let i = 0; i < 2000; i++) l.observe(i % 10 === 0);
    expect(l.estimate).toBeGreaterThan(0.06);
    expect(l.estimate).toBeLessThan(0.15);
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
    expect(stats.jitter).toBeGreaterThan(0);
    expect(stats.loss).toBeGreaterThan(0.03);
    expect(stats.loss).toBeLessThan(0.25);
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
