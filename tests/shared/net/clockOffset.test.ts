import { describe, expect, it } from 'vitest';
import { ClockOffsetEstimator } from '../../../shared/net/clockOffset';

describe('ClockOffsetEstimator', () => {
  it('is undefined before the first sample and takes the first sample as is', () => {
    const est = new ClockOffsetEstimator();
    expect(est.offset).toBeUndefined();
    expect(est.offsetAt(5)).toBeUndefined();
    est.observe(100, 130.5);
    expect(est.offset).toBe(30.5);
    expect(est.offsetAt(1000)).toBe(30.5);
  });

  it('moves towards a lower (less-delayed) sample no faster than the slew rate', () => {
    const est = new ClockOffsetEstimator({ maxSlewRate: 0.01 });
    est.observe(0, 10.05);
    est.observe(1, 11.0); // sample 10.0: target drops by 0.05
    expect(est.offsetAt(11)).toBeCloseTo(10.05, 12);
    expect(est.offsetAt(12)).toBeCloseTo(10.04, 12);
    expect(est.offsetAt(14)).toBeCloseTo(10.02, 12);
    expect(est.offsetAt(100)).toBeCloseTo(10.0, 12); // never overshoots the target
  });

  it('ignores higher (jittered) samples while a lower one is in the window', () => {
    const est = new ClockOffsetEstimator();
    est.observe(0, 2.0);
    for (let i = 1; i <= 20; i += 1) est.observe(i, i + 2.0 + (i % 3) * 0.01);
    expect(est.offsetAt(21)).toBe(2.0);
  });

  it('follows a permanently slower route once the low samples leave the window', () => {
    const est = new ClockOffsetEstimator({ windowSize: 4, maxSlewRate: 0.1 });
    est.observe(0, 1.0);
    for (let i = 1; i <= 4; i += 1) est.observe(i, i + 1.1);
    expect(est.offsetAt(5.1)).toBeCloseTo(1.0, 12); // target just became 1.1 at local 5.1: no time to slew yet
    expect(est.offsetAt(5.6)).toBeCloseTo(1.05, 12);
    expect(est.offsetAt(7)).toBeCloseTo(1.1, 12);
  });

  it('jumps at once when the target moves further than the snap threshold (e.g. a clock step)', () => {
    const est = new ClockOffsetEstimator({ windowSize: 1, snapThreshold: 0.25 });
    est.observe(0, 1);
    est.observe(1, 3);
    expect(est.offsetAt(2)).toBe(2);
  });

  it('rejects bad options and samples, and resets', () => {
    expect(() => new ClockOffsetEstimator({ windowSize: 0 })).toThrow(RangeError);
    expect(() => new ClockOffsetEstimator({ maxSlewRate: -1 })).toThrow(RangeError);
    expect(() => new ClockOffsetEstimator({ snapThreshold: Number.NaN })).toThrow(RangeError);
    const est = new ClockOffsetEstimator();
    expect(() => est.observe(Number.NaN, 1)).toThrow(/finite/);
    est.observe(1, 2);
    expect(est.sampleCount).toBe(1);
    est.reset();
    expect(est.offset).toBeUndefined();
    expect(est.sampleCount).toBe(0);
  });
});
