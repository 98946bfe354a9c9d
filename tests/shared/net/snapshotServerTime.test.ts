import { describe, expect, it } from 'vitest';
import { SnapshotInterpolator } from '../../../shared/net/snapshotInterpolator';
import { SeededRandom } from '../../../shared/random/prng';

describe('SnapshotInterpolator server-time stamping', () => {
  /**
   * An entity moving at a steady 200 units/s, snapshotted every 50 ms of server time, arriving with 30 ms base
   * latency plus 0–40 ms of seeded jitter (and a 1000 s clock difference). Renders at 60 Hz, 100 ms behind.
   * Returns the per-frame change in x after a 1 s warm-up.
   */
  function renderDeltas(useServerTime: boolean): number[] {
    const rng = new SeededRandom(99);
    const arrivals = Array.from({ length: 120 }, (_, i) => ({
      serverTime: i * 0.05,
      arrival: 1000 + i * 0.05 + 0.03 + rng.range(0, 0.04),
    }));
    const clock = { t: 1000 };
    const history = new SnapshotInterpolator<{ x: number }>({ now: () => clock.t });
    let next = 0;
    const xs: number[] = [];
    for (let frame = 0; frame < 5 * 60; frame += 1) {
      clock.t = 1000 + frame / 60;
      while (next < arrivals.length && (arrivals[next]?.arrival ?? Infinity) <= clock.t) {
        const { serverTime } = arrivals[next] as { serverTime: number };
        history.add({ x: 200 * serverTime }, useServerTime ? { serverTime } : {});
        next += 1;
      }
      const sampled = history.sample(clock.t - 0.1);
      if (frame >= 60 && sampled) xs.push(sampled.x);
    }
    return xs.slice(1).map((x, i) => x - (xs[i] as number));
  }

  it('renders steady motion smoothly despite jittered arrivals, unlike arrival stamping', () => {
    const ideal = 200 / 60;
    const worst = (deltas: number[]): number => Math.max(...deltas.map((d) => Math.abs(d - ideal)));
    const serverDeltas = renderDeltas(true);
    const arrivalDeltas = renderDeltas(false);
    expect(serverDeltas.length).toBeGreaterThan(200);
    // Server stamping: every frame advances by the ideal amount to within the 2% slew allowance.
    expect(worst(serverDeltas)).toBeLessThan(ideal * 0.03);
    // Arrival stamping passes the jitter through as visibly uneven speed.
    expect(worst(arrivalDeltas)).toBeGreaterThan(ideal * 0.3);
  });
});
