import { describe, expect, it } from 'vitest';
import { SnapshotInterpolator } from '../../../shared/net/snapshotInterpolator';
import { SeededRandom } from '../../../shared/random/prng';

/** A manual clock: tests move time explicitly. */
function manualClock(start = 0) {
  const clock = { t: start, now: () => clock.t };
  return clock;
}

interface Car {
  x: number;
  pos: { y: number };
  heading: number;
  label: string;
}

function car(x: number, y: number, heading = 0, label = 'c'): Car {
  return { x, pos: { y }, heading, label };
}

describe('SnapshotInterpolator sampling', () => {
  it('returns undefined when empty', () => {
    const history = new SnapshotInterpolator<Car>({ now: () => 0 });
    expect(history.sample(0)).toBeUndefined();
    expect(history.size).toBe(0);
  });

  it('clamps to the first before it and to the last after it', () => {
    const clock = manualClock(1);
    const history = new SnapshotInterpolator<Car>({ now: clock.now });
    history.add(car(0, 0));
    clock.t = 2;
    history.add(car(10, 100));
    expect(history.sample(-50)).toEqual(car(0, 0));
    expect(history.sample(1)).toEqual(car(0, 0));
    expect(history.sample(2)).toEqual(car(10, 100));
    expect(history.sample(99)).toEqual(car(10, 100));
  });

  it('returns a single snapshot for any time', () => {
    const history = new SnapshotInterpolator<Car>({ now: () => 5 });
    history.add(car(3, 4));
    expect(history.sample(0)).toEqual(car(3, 4));
    expect(history.sample(10)).toEqual(car(3, 4));
  });

  it('hits stored snapshots exactly and interpolates nested fields between them', () => {
    const clock = manualClock(0);
    const history = new SnapshotInterpolator<Car>({ now: clock.now });
    for (const [t, x] of [
      [0, 0],
      [1, 10],
      [3, 30],
    ] as const) {
      clock.t = t;
      history.add(car(x, x * 2, 0, `at${t}`));
    }
    expect(history.sample(1)).toEqual(car(10, 20, 0, 'at1'));
    expect(history.sample(3)).toEqual(car(30, 60, 0, 'at3'));
    expect(history.sample(0.25)).toEqual(car(2.5, 5, 0, 'at0'));
    // Non-numeric fields hold the earlier snapshot's value right up to the later one's time.
    expect(history.sample(2.99)?.label).toBe('at1');
    expect(history.sample(2)).toEqual(car(20, 40, 0, 'at1'));
  });

  it('interpolates configured angle fields the short way across ±π', () => {
    const clock = manualClock(0);
    const history = new SnapshotInterpolator<Car>({ now: clock.now, angles: ['heading'] });
    history.add(car(0, 0, Math.PI - 0.1));
    clock.t = 1;
    history.add(car(0, 0, -Math.PI + 0.1));
    const mid = history.sample(0.5);
    expect(Math.abs(mid?.heading ?? 0)).toBeCloseTo(Math.PI, 12);
    expect(history.sample(0.25)?.heading).toBeCloseTo(Math.PI - 0.05, 12);
    const linear = new SnapshotInterpolator<Car>({ now: () => 0 });
    linear.add(car(0, 0, 3));
    expect(linear.sample(0)?.heading).toBe(3);
  });

  it('hands out copies: mutating a sample or the added object does not change history', () => {
    const history = new SnapshotInterpolator<Car>({ now: () => 0 });
    const added = car(1, 2);
    history.add(added);
    added.pos.y = 99;
    const sampled = history.sample(0);
    if (sampled) sampled.pos.y = -1;
    expect(history.sample(0)?.pos.y).toBe(2);
  });

  it('rejects bad construction, data and times', () => {
    // @ts-expect-error a clock is required
    expect(() => new SnapshotInterpolator({})).toThrow(/now\(\)/);
    expect(() => new SnapshotInterpolator({ now: () => 0, capacity: 1 })).toThrow(RangeError);
    const history = new SnapshotInterpolator<Car>({ now: () => Number.NaN });
    expect(() => history.add(car(0, 0))).toThrow(/non-finite/);
    const ok = new SnapshotInterpolator<Car>({ now: () => 0 });
    // @ts-expect-error data must be an object
    expect(() => ok.add(5)).toThrow(TypeError);
    expect(() => ok.sample(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => ok.add(car(0, 0), { serverTime: Number.NaN })).toThrow(/serverTime/);
  });
});

describe('SnapshotInterpolator history', () => {
  it('is bounded: the oldest snapshots are evicted', () => {
    const clock = manualClock(0);
    const history = new SnapshotInterpolator<Car>({ now: clock.now, capacity: 8 });
    for (let i = 0; i < 100; i += 1) {
      clock.t = i;
      history.add(car(i, 0));
    }
    expect(history.size).toBe(8);
    expect(history.sample(0)?.x).toBe(92);
  });

  it('replaces a snapshot with the same stamp', () => {
    const history = new SnapshotInterpolator<Car>({ now: () => 1 });
    history.add(car(1, 0));
    history.add(car(2, 0));
    expect(history.size).toBe(1);
    expect(history.sample(1)?.x).toBe(2);
  });

  it('orders reordered server-stamped snapshots by server time and drops ones older than a full history', () => {
    const clock = manualClock(100);
    const history = new SnapshotInterpolator<Car>({ now: clock.now, capacity: 3 });
    history.add(car(20, 0), { serverTime: 2 });
    history.add(car(0, 0), { serverTime: 0 }); // late, but still inside the history
    history.add(car(30, 0), { serverTime: 3 });
    // All arrived at local 100: the least-delayed is the one stamped 3, so local = server + 97.
    expect(history.clockOffset).toBe(97);
    expect(history.sample(97 + 1)?.x).toBe(10);
    expect(history.sample(97 + 2.5)?.x).toBe(25);
    history.add(car(-10, 0), { serverTime: -1 }); // older than everything held, and the history is full
    expect(history.droppedCount).toBe(1);
    expect(history.size).toBe(3);
  });

  it('refuses to mix arrival- and server-stamped snapshots until cleared', () => {
    const history = new SnapshotInterpolator<Car>({ now: () => 0 });
    history.add(car(0, 0));
    expect(() => history.add(car(1, 0), { serverTime: 1 })).toThrow(/arrival-stamped/);
    history.clear();
    expect(history.sample(0)).toBeUndefined();
    history.add(car(1, 0), { serverTime: 1 });
    expect(history.clockOffset).toBe(-1);
  });

  it('samples like a linear-scan reference on seeded random histories (binary search check)', () => {
    const rng = new SeededRandom(7);
    for (let round = 0; round < 40; round += 1) {
      const clock = manualClock(rng.range(-10, 10));
      const capacity = 2 + rng.int(30);
      const history = new SnapshotInterpolator<{ v: number; n: { w: number } }>({ now: clock.now, capacity });
      const times: number[] = [];
      const values: number[] = [];
      const count = 1 + rng.int(45);
      for (let i = 0; i < count; i += 1) {
        clock.t += rng.next() < 0.2 ? rng.int(2) : rng.range(0.001, 2); // includes repeated stamps
        const v = rng.range(-100, 100);
        history.add({ v, n: { w: -v } });
        if (times.at(-1) === clock.t) values[values.length - 1] = v;
        else {
          times.push(clock.t);
          values.push(v);
        }
      }
      const keptTimes = times.slice(-capacity);
      const keptValues = values.slice(-capacity);
      const reference = (t: number): number => {
        let i = 0;
        while (i < keptTimes.length && (keptTimes[i] as number) <= t) i += 1;
        if (i === 0) return keptValues[0] as number;
        if (i === keptTimes.length || keptTimes[i - 1] === t) return keptValues[i - 1] as number;
        const t0 = keptTimes[i - 1] as number;
        const t1 = keptTimes[i] as number;
        const f = (t - t0) / (t1 - t0);
        return (keptValues[i - 1] as number) * (1 - f) + (keptValues[i] as number) * f;
      };
      const first = keptTimes[0] as number;
      const last = keptTimes.at(-1) as number;
      for (let probe = 0; probe < 25; probe += 1) {
        const t = rng.next() < 0.3 ? (keptTimes[rng.int(keptTimes.length)] as number) : rng.range(first - 1, last + 1);
        const sampled = history.sample(t);
        expect(sampled?.v).toBe(reference(t));
        expect(sampled?.n.w).toBe(-reference(t));
      }
    }
  });
});
