import { describe, expect, it } from 'vitest';
import { RttEstimator } from '../../../../main/net/v1/rttEstimator';

describe('RttEstimator', () => {
  it('takes the first sample as is, then 7/8 old + 1/8 new (reference EMA)', () => {
    const r = new RttEstimator();
    expect(r.smoothed).toBeUndefined();
    r.addSample(0.1);
    expect(r.smoothed).toBe(0.1);
    r.addSample(0.2);
    expect(r.smoothed).toBeCloseTo(0.1125, 10);
  });

  it('ignores negative and non-finite samples', () => {
    const r = new RttEstimator();
    r.addSample(-1);
    r.addSample(Number.NaN);
    r.addSample(Infinity);
    expect(r.smoothed).toBeUndefined();
  });

  it('has a floor so a loopback RTT cannot cause a retransmission storm', () => {
    const r = new RttEstimator({ minRto: 0.05 });
    r.addSample(0.0001);
    expect(r.retransmitTimeout(0)).toBe(0.05);
  });

  it('uses 0.1 s before any sample and backs off exponentially to a ceiling', () => {
    const r = new RttEstimator({ minRto: 0.01, maxRto: 1 });
    expect(r.retransmitTimeout(0)).toBeCloseTo(0.2);
    expect(r.retransmitTimeout(1)).toBeCloseTo(0.4);
    expect(r.retransmitTimeout(2)).toBeCloseTo(0.8);
    expect(r.retransmitTimeout(3)).toBe(1);
    expect(r.retransmitTimeout(50)).toBe(1);
  });

  it('widens the timeout with jitter', () => {
    const steady = new RttEstimator({ minRto: 0 });
    const jittery = new RttEstimator({ minRto: 0 });
    for (let i = 0; i < 50; i++) {
      steady.addSample(0.05);
      jittery.addSample(i % 2 ? 0.02 : 0.08);
    }
    expect(jittery.jitter).toBeGreaterThan(steady.jitter);
    expect(jittery.retransmitTimeout(0)).toBeGreaterThan(steady.retransmitTimeout(0));
  });
});
