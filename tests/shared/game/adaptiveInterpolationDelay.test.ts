import { describe, expect, it } from 'vitest';
import { AdaptiveInterpolationDelay } from '../../../shared/game/adaptiveInterpolationDelay';

const SIXTIETH = 1 / 60;

/** Feeds `count` snapshots `interval` apart in host time, each arriving `transit(i)` later; returns the next index. */
function feed(
  delay: AdaptiveInterpolationDelay,
  from: number,
  count: number,
  interval: number,
  transit: (i: number) => number = () => 0.002,
): number {
  for (let i = from; i < from + count; i += 1) delay.observe(i * interval, i * interval + 10 + transit(i));
  return from + count;
}

describe('AdaptiveInterpolationDelay', () => {
  it('keeps the initial delay until it has measured enough snapshots', () => {
    const delay = new AdaptiveInterpolationDelay({ initial: 0.1, warmup: 8 });
    feed(delay, 0, 7, SIXTIETH);
    expect(delay.settled).toBe(false);
    expect(delay.at(10.2)).toBe(0.1);
  });

  it('settles on about one interval plus a small margin under steady arrivals, at 60 and at 30 a second', () => {
    for (const interval of [SIXTIETH, 1 / 30]) {
      const delay = new AdaptiveInterpolationDelay();
      const next = feed(delay, 0, 200, interval, (i) => 0.002 + (i % 2) * 0.0002);
      const now = next * interval + 10;
      expect(delay.interval).toBeCloseTo(interval, 9);
      expect(delay.at(now)).toBeGreaterThan(interval);
      expect(delay.at(now)).toBeLessThan(interval + 0.004);
    }
  });

  it('grows at once when a snapshot arrives later than the delay covers', () => {
    const delay = new AdaptiveInterpolationDelay();
    const next = feed(delay, 0, 60, SIXTIETH);
    const arrival = next * SIXTIETH + 10 + 0.002 + 0.03; // 30 ms late
    const before = delay.at(arrival);
    delay.observe(next * SIXTIETH, arrival);
    expect(before).toBeLessThan(0.022);
    expect(delay.at(arrival)).toBeCloseTo(SIXTIETH + 0.03 + 0.003, 6);
  });

  it('grows by two intervals past the jitter at most for one arrival far later than the rest (a stalled page)', () => {
    const delay = new AdaptiveInterpolationDelay();
    const next = feed(delay, 0, 60, SIXTIETH);
    const arrival = next * SIXTIETH + 10 + 0.002 + 0.25; // the page stalled for a quarter of a second
    delay.observe(next * SIXTIETH, arrival);
    expect(delay.at(arrival)).toBeCloseTo(SIXTIETH + 2 * SIXTIETH + 0.003, 6);
    // Lasting lateness moves the quantile itself: then the delay covers it.
    const after = feed(delay, next + 1, 64, SIXTIETH, (i) => 0.002 + (i % 2) * 0.025);
    expect(delay.at(after * SIXTIETH + 10)).toBeGreaterThan(SIXTIETH + 0.025);
  });

  it('counts lateness past two intervals (a stall, its snapshots then in a burst) as two intervals of jitter', () => {
    const delay = new AdaptiveInterpolationDelay();
    let next = feed(delay, 0, 60, SIXTIETH);
    // 12 of every 20 of the next 128 snapshots come 200 ms late: far more than the 5% the quantile leaves out.
    next = feed(delay, next, 128, SIXTIETH, (i) => 0.002 + (i % 20 < 12 ? 0.2 : 0));
    const target = SIXTIETH + 2 * SIXTIETH + 0.003;
    // Once the last late one's own growth has shrunk away, the delay rests on the capped target.
    const calm = next * SIXTIETH + 10 + 10;
    expect(delay.at(calm)).toBeCloseTo(target, 6);
  });

  it('after a jitter burst shrinks slowly (at most shrinkRate), back to one interval plus margin', () => {
    const delay = new AdaptiveInterpolationDelay({ shrinkRate: 0.01, jitterWindow: 64 });
    let next = feed(delay, 0, 60, SIXTIETH);
    next = feed(delay, next, 6, SIXTIETH, (i) => 0.002 + (i % 2) * 0.04); // a burst: every other one 40 ms late
    const burstEnd = next * SIXTIETH + 10;
    const grown = delay.at(burstEnd);
    expect(grown).toBeGreaterThan(0.05);
    // Calm again: once the burst left the jitter window, the delay may only fall 10 ms per second.
    next = feed(delay, next, 120, SIXTIETH);
    const later = next * SIXTIETH + 10;
    const elapsed = later - burstEnd;
    expect(delay.at(later)).toBeGreaterThanOrEqual(grown - 0.01 * elapsed - 1e-9);
    expect(delay.at(later)).toBeLessThan(grown);
    expect(delay.at(later + 10)).toBeCloseTo(SIXTIETH + 0.003, 3);
  });

  it('once an extrapolated stretch ends, grows to the target plus its shortfall, at most two intervals, however many', () => {
    const delay = new AdaptiveInterpolationDelay();
    const next = feed(delay, 0, 60, SIXTIETH);
    const now = next * SIXTIETH + 10;
    const before = delay.at(now);
    delay.drew(0.004, now);
    delay.drew(0.012, now + 0.008);
    expect(delay.at(now + 0.008)).toBe(before); // not while extrapolating: the view draws on from where it is
    delay.drew(0, now + 0.016);
    expect(delay.at(now + 0.016)).toBeCloseTo(before + 0.012, 6);
    delay.drew(1, now + 0.02); // a long stall is not jitter: two intervals at most
    delay.drew(0, now + 0.03);
    expect(delay.at(now + 0.03)).toBeCloseTo(before + 2 * SIXTIETH, 3);
    // A page that stalls again and again does not ratchet the delay up past that.
    for (let k = 1; k <= 20; k += 1) {
      delay.drew(0.03, now + 0.03 + k * 0.1);
      delay.drew(0, now + 0.05 + k * 0.1);
    }
    // (each stretch raises it to the target plus its own 30 ms; it shrinks a little in between)
    expect(delay.at(now + 2.05)).toBeLessThanOrEqual(before + 0.03);
    expect(delay.at(now + 2.05)).toBeGreaterThan(before + 0.029);
  });

  it('stays within its bounds and refuses bad settings and times', () => {
    const delay = new AdaptiveInterpolationDelay({ max: 0.05 });
    const next = feed(delay, 0, 60, 0.1);
    expect(delay.at(next * 0.1 + 10)).toBe(0.05);
    expect(() => new AdaptiveInterpolationDelay({ min: 0.2, max: 0.1 })).toThrow(RangeError);
    expect(() => new AdaptiveInterpolationDelay({ jitterQuantile: 2 })).toThrow(RangeError);
    expect(() => new AdaptiveInterpolationDelay({ warmup: 1 })).toThrow(RangeError);
    expect(() => new AdaptiveInterpolationDelay({ shrinkRate: 0 })).toThrow(RangeError);
    expect(() => delay.observe(NaN, 1)).toThrow(RangeError);
  });

  it('learns nothing from a snapshot no newer than the newest (reordered, or the host clock standing still)', () => {
    const delay = new AdaptiveInterpolationDelay();
    const next = feed(delay, 0, 60, SIXTIETH);
    const now = next * SIXTIETH + 10;
    const before = delay.at(now);
    for (let i = 0; i < 30; i += 1) delay.observe((next - 1) * SIXTIETH, now + i * 0.05);
    expect(delay.at(now)).toBe(before);
  });
});
