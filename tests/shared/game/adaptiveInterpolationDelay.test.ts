import { describe, expect, it } from 'vitest';
import { AdaptiveInterpolationDelay } from '../../../shared/game/adaptiveInterpolationDelay';

const SIXTIETH = 1 / 60;
/** Local minus host clock in these tests: the least-delayed snapshot's transit (2 ms) past 10 s. */
const OFFSET = 10.002;

interface Stream {
  /** Host time between snapshots. */
  readonly interval: number;
  /** Local time between drawn frames. */
  readonly frame: number;
  /** Local time of the first frame past the first snapshot's arrival. */
  readonly phase: number;
  /** Extra transit of snapshot `i` past the least-delayed one's, seconds. */
  readonly late?: (i: number) => number;
}

/**
 * Plays snapshots and frames to `delay` from local time `from` for `seconds`: snapshot i is stamped i × interval and
 * arrives OFFSET + late(i) after it (never before an earlier one); each frame tells the delay how old the newest
 * arrived snapshot is. Returns the local time it ended at.
 */
function play(delay: AdaptiveInterpolationDelay, stream: Stream, from: number, seconds: number): number {
  const late = stream.late ?? (() => 0);
  const arrivals: number[] = [];
  let lastArrival = -Infinity;
  const end = from + seconds;
  const first = Math.ceil((from - OFFSET) / stream.interval);
  for (let i = Math.max(0, first); i * stream.interval + OFFSET < end; i += 1) {
    lastArrival = Math.max(lastArrival, i * stream.interval + OFFSET + late(i));
    arrivals.push(lastArrival);
  }
  let next = 0;
  let newest: number | undefined;
  for (let now = from + stream.phase; now < end; now += stream.frame) {
    while (next < arrivals.length && (arrivals[next] as number) <= now) {
      newest = (Math.max(0, first) + next) * stream.interval;
      delay.observe(newest);
      next += 1;
    }
    if (newest !== undefined) delay.drew(now - OFFSET - newest, now);
  }
  return end;
}

describe('AdaptiveInterpolationDelay', () => {
  it('keeps the initial delay until it has measured enough frames', () => {
    const delay = new AdaptiveInterpolationDelay({ initial: 0.1, warmup: 30 });
    const end = play(delay, { interval: SIXTIETH, frame: SIXTIETH, phase: 0.003 }, OFFSET, 29 / 60);
    expect(delay.settled).toBe(false);
    expect(delay.at(end)).toBe(0.1);
    expect(delay.interval).toBeCloseTo(SIXTIETH, 9);
  });

  it('covers the newest snapshot’s age at the frames: little when snapshots land just before them, an interval just after', () => {
    for (const interval of [SIXTIETH, 1 / 30]) {
      // Frames 3 ms after each arrival: the newest snapshot is never more than 3 ms old when drawn.
      const before = new AdaptiveInterpolationDelay();
      const a = play(before, { interval, frame: interval, phase: 0.003 }, OFFSET, 4);
      expect(before.at(a)).toBeCloseTo(0.003 + 0.003, 3);
      // Frames 1 ms before each arrival: the newest is an interval less 1 ms old.
      const after = new AdaptiveInterpolationDelay();
      const b = play(after, { interval, frame: interval, phase: interval - 0.001 }, OFFSET, 4);
      expect(after.at(b)).toBeCloseTo(interval - 0.001 + 0.003, 3);
    }
    // Frames faster than the snapshots see every age up to an interval: the delay covers nearly all of them.
    const fast = new AdaptiveInterpolationDelay();
    const c = play(fast, { interval: SIXTIETH, frame: 1 / 144, phase: 0.0005 }, OFFSET, 4);
    expect(fast.at(c)).toBeGreaterThan(SIXTIETH);
    expect(fast.at(c)).toBeLessThan(SIXTIETH + 0.004);
  });

  it('grows at once when late snapshots raise the ages it covers, and then interpolates every frame', () => {
    const delay = new AdaptiveInterpolationDelay();
    const calm = { interval: SIXTIETH, frame: SIXTIETH, phase: 0.003 };
    let now = play(delay, calm, OFFSET, 2);
    expect(delay.at(now)).toBeCloseTo(0.006, 3);
    // Every fifth snapshot now comes 10 ms late: its frame sees the one before it, an interval older than usual.
    now = play(delay, { ...calm, late: (i) => (i % 5 === 0 ? 0.01 : 0) }, now, 2);
    expect(delay.at(now)).toBeCloseTo(SIXTIETH + 0.006, 3);
  });

  it('counts an age past three intervals (a stall) as three intervals', () => {
    const delay = new AdaptiveInterpolationDelay();
    let now = play(delay, { interval: SIXTIETH, frame: SIXTIETH, phase: 0.003 }, OFFSET, 2);
    // The page draws while no snapshot came for 200 ms, ten times in a second: far more than the 1% left out.
    for (let k = 0; k < 10; k += 1) delay.drew(0.2, now + k * 0.1);
    now += 1;
    for (let k = 0; k < 60; k += 1) delay.drew(0.003, now + k * SIXTIETH);
    // Once the last stretch's growth has shrunk away, the delay rests on the capped age.
    expect(delay.at(now + 10)).toBeCloseTo(3 * SIXTIETH + 0.003, 6);
  });

  it('after a burst of late snapshots shrinks slowly (at most shrinkRate), back to the calm target', () => {
    const delay = new AdaptiveInterpolationDelay({ shrinkRate: 0.01 });
    const calm = { interval: SIXTIETH, frame: SIXTIETH, phase: 0.003 };
    let now = play(delay, calm, OFFSET, 2);
    now = play(delay, { ...calm, late: (i) => (i % 2 === 0 ? 0.04 : 0) }, now, 0.2);
    const burstEnd = now;
    const grown = delay.at(burstEnd);
    expect(grown).toBeGreaterThan(0.04);
    // Calm again: once the burst left the two-second window the delay may only fall 10 ms per second.
    now = play(delay, calm, now, 3);
    expect(delay.at(now)).toBeGreaterThanOrEqual(grown - 0.01 * (now - burstEnd) - 1e-9);
    expect(delay.at(now)).toBeLessThan(grown);
    now = play(delay, calm, now, 6);
    expect(delay.at(now)).toBeCloseTo(0.003 + 0.003, 3);
  });

  it('once an extrapolated stretch ends, grows to the target plus its shortfall, at most two intervals', () => {
    const delay = new AdaptiveInterpolationDelay();
    let now = play(delay, { interval: SIXTIETH, frame: SIXTIETH, phase: 0.003 }, OFFSET, 2);
    const target = delay.at(now);
    // One frame past the newest snapshot (one in 120 frames: not enough to move the quantile).
    delay.drew(target + 0.012, now);
    expect(delay.at(now)).toBeCloseTo(target, 9); // not while extrapolating: the view draws on from where it is
    delay.drew(0.003, now + SIXTIETH);
    // Grown at half speed (the others slow down, never step back), then resting there.
    expect(delay.at(now + SIXTIETH + 0.01)).toBeCloseTo(target + 0.005, 6);
    expect(delay.at(now + SIXTIETH + 0.03)).toBeCloseTo(target + 0.012, 3);
    // Three seconds on, a long stall: two intervals past the target at most.
    now = play(delay, { interval: SIXTIETH, frame: SIXTIETH, phase: 0.003 }, now + 0.5, 3);
    expect(delay.at(now)).toBeCloseTo(target, 6);
    delay.drew(1, now);
    delay.drew(0.003, now + SIXTIETH);
    // (grown at half speed by now + 0.083, shrinking 10 ms a second meanwhile)
    expect(delay.at(now + 0.1)).toBeLessThanOrEqual(target + 2 * SIXTIETH);
    expect(delay.at(now + 0.1)).toBeGreaterThan(target + 2 * SIXTIETH - 0.001);
  });

  it('never grows faster than growRate, so the others never move backwards', () => {
    const delay = new AdaptiveInterpolationDelay({ growRate: 0.5 });
    let now = play(delay, { interval: SIXTIETH, frame: SIXTIETH, phase: 0.003 }, OFFSET, 2);
    // Every other snapshot lost from here: the drawn moment, now − delay, must still only move forwards.
    let drawnMoment = now - delay.at(now);
    for (let k = 0; k < 120; k += 1) {
      now += SIXTIETH;
      const newest = Math.floor((now - OFFSET - 0.003) / (2 * SIXTIETH)) * 2 * SIXTIETH;
      delay.observe(newest);
      delay.drew(now - OFFSET - newest, now);
      const moment = now - delay.at(now);
      expect(moment).toBeGreaterThanOrEqual(drawnMoment + 0.5 * SIXTIETH - 1e-9);
      drawnMoment = moment;
    }
    expect(delay.at(now)).toBeGreaterThan(2 * SIXTIETH);
    expect(() => new AdaptiveInterpolationDelay({ growRate: 1 })).toThrow(RangeError);
  });

  it('stays within its bounds and refuses bad settings and times', () => {
    const delay = new AdaptiveInterpolationDelay({ max: 0.05 });
    const end = play(delay, { interval: 0.1, frame: SIXTIETH, phase: 0.003 }, OFFSET, 4);
    expect(delay.at(end)).toBe(0.05);
    expect(() => new AdaptiveInterpolationDelay({ min: 0.2, max: 0.1 })).toThrow(RangeError);
    expect(() => new AdaptiveInterpolationDelay({ ageQuantile: 2 })).toThrow(RangeError);
    expect(() => new AdaptiveInterpolationDelay({ warmup: 1 })).toThrow(RangeError);
    expect(() => new AdaptiveInterpolationDelay({ ageWindow: 1.5 })).toThrow(RangeError);
    expect(() => new AdaptiveInterpolationDelay({ shrinkRate: 0 })).toThrow(RangeError);
    expect(() => delay.observe(NaN)).toThrow(RangeError);
    // A frame with no time to speak of tells nothing.
    const before = delay.at(end);
    delay.drew(NaN, end);
    delay.drew(0.01, Infinity);
    expect(delay.at(end)).toBe(before);
  });

  it('learns nothing from a snapshot no newer than the newest (reordered, or the host clock standing still)', () => {
    const delay = new AdaptiveInterpolationDelay();
    play(delay, { interval: SIXTIETH, frame: SIXTIETH, phase: 0.003 }, OFFSET, 1);
    for (let i = 0; i < 30; i += 1) delay.observe(0.5 - i * 0.001);
    expect(delay.interval).toBeCloseTo(SIXTIETH, 9);
  });

  it('measures nothing before it knows the snapshot interval', () => {
    const delay = new AdaptiveInterpolationDelay();
    delay.observe(1);
    for (let k = 0; k < 60; k += 1) delay.drew(0.001, 12 + k * SIXTIETH);
    expect(delay.settled).toBe(false);
    expect(delay.at(13)).toBe(0.1);
  });
});
