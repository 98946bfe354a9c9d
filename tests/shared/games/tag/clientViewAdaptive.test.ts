import { describe, expect, it } from 'vitest';
import { ClientView } from '../../../../shared/games/tag/client/clientView';
import type { GameSnapshot, SnapshotPlayer } from '../../../../shared/games/tag/wire/snapshot';
import { SeededRandom } from '../../../../shared/random/prng';
import { OPEN_ARENA } from './fixtures';

/** Slow enough to stay inside the arena for 10 s. */
const SPEED = 120;

function snap(k: number, t: number, runnerX: number): GameSnapshot {
  const players: SnapshotPlayer[] = [
    ['me', 800, 800, 0, 0, 0, 0, 0, -1],
    ['run', runnerX, 300, SPEED, 0, 0, 0, 0, -1],
  ];
  return { k, t, ph: 'playing', r: 60, p: players };
}

/**
 * Plays `seconds` of a runner at constant speed to an adaptive view: snapshots every `every` ticks at 60 Hz, arriving
 * 2 ms + up to `jitterMs` late (FIFO), `loss` of them lost, each taken at its arrival; frames at 120 Hz. Returns the
 * view and per-frame samples.
 */
function play(options: { every: number; jitterMs: number; loss: number; seconds: number; seed: number }) {
  const rng = new SeededRandom(options.seed);
  const v = new ClientView({ playerId: 'me', arena: OPEN_ARENA, interpolationDelay: 'adaptive' });
  const interval = options.every / 60;
  const count = Math.ceil(options.seconds / interval);
  let lastArrival = 0;
  const sends = Array.from({ length: count }, (_, i) => {
    const t = i * interval;
    lastArrival = Math.max(lastArrival, 50 + t + 0.002 + rng.range(0, options.jitterMs / 1000));
    return { t, arrival: lastArrival, lost: i > 10 && rng.next() < options.loss };
  });
  const frames: { now: number; x: number; delay: number; newestX: number }[] = [];
  let next = 0;
  let newestX = -Infinity;
  for (let frame = 0; frame < options.seconds * 120; frame += 1) {
    const now = 50 + frame / 120;
    while (sends[next] && sends[next]!.arrival <= now) {
      const s = sends[next]!;
      if (!s.lost) {
        v.applySnapshot(snap(next * options.every, s.t, 100 + SPEED * s.t), s.arrival);
        newestX = 100 + SPEED * s.t;
      }
      next += 1;
    }
    const run = v.sample(now).players.find((p) => p.id === 'run');
    if (run) frames.push({ now, x: run.x, delay: v.interpolationDelay, newestX });
  }
  return { view: v, frames, interval };
}

describe('ClientView with the adaptive interpolation delay', () => {
  it('draws others about one snapshot interval plus jitter in the past, smoothly, at 60 snapshots a second', () => {
    const { frames, interval } = play({ every: 1, jitterMs: 1, loss: 0, seconds: 6, seed: 3 });
    const late = frames.filter((f) => f.now > 53);
    const delay = late.at(-1)!.delay;
    expect(delay).toBeGreaterThan(interval);
    expect(delay).toBeLessThan(interval + 0.006); // not the old 100 ms
    // Drawn where the runner was `delay` before now (host time mapped by the least-delayed arrival, 2 ms)...
    for (const f of late) expect(Math.abs(f.x - (100 + SPEED * (f.now - 50 - 0.002 - f.delay)))).toBeLessThan(1);
    // ...and moving on steadily, frame after frame (no stalls, no jumps).
    const steps = late.slice(1).map((f, i) => f.x - late[i]!.x);
    expect(Math.min(...steps)).toBeGreaterThan((SPEED / 120) * 0.9);
    expect(Math.max(...steps)).toBeLessThan((SPEED / 120) * 1.1);
  });

  it('grows under loss and jitter so that few frames are drawn past the newest snapshot', () => {
    const { frames, view } = play({ every: 1, jitterMs: 5, loss: 0.02, seconds: 10, seed: 9 });
    const late = frames.filter((f) => f.now > 52);
    expect(view.interpolationDelay).toBeGreaterThan(1 / 60 + 0.004);
    expect(view.interpolationDelay).toBeLessThan(0.06);
    // A frame drawn past the newest snapshot shows the runner beyond the newest position received.
    const extrapolated = late.filter((f) => f.x > f.newestX + 1e-6).length;
    expect(extrapolated / late.length).toBeLessThan(0.01);
    const steps = late.slice(1).map((f, i) => f.x - late[i]!.x);
    expect(Math.min(...steps)).toBeGreaterThan(0); // never backwards
  });
});
