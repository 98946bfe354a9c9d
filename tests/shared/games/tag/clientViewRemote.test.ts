import { describe, expect, it } from 'vitest';
import { ClientView } from '../../../../shared/games/tag/client/clientView';
import type { GameSnapshot, SnapshotPlayer } from '../../../../shared/games/tag/wire/snapshot';
import { SeededRandom } from '../../../../shared/random/prng';
import { OPEN_ARENA } from './fixtures';

/** A snapshot of tick `k` at host time `t`, players as wire tuples. */
function snap(k: number, t: number, players: SnapshotPlayer[]): GameSnapshot {
  return { k, t, ph: 'playing', r: 60, p: players };
}

/** A resting player tuple. */
const at = (id: string, x: number, y: number, ack = -1, flags = 0): SnapshotPlayer => [
  id,
  x,
  y,
  0,
  0,
  flags,
  0,
  0,
  ack,
];

function view(options: Partial<ConstructorParameters<typeof ClientView>[0]> = {}): ClientView {
  return new ClientView({ playerId: 'me', arena: OPEN_ARENA, ...options });
}

describe('ClientView other players', () => {
  it('draws them interpolationDelay in the past on the host timeline: steady motion stays steady under jitter', () => {
    const rng = new SeededRandom(17);
    const v = view({ interpolationDelay: 0.1 });
    const speed = 300;
    const sends = Array.from({ length: 90 }, (_, i) => {
      const t = i / 30;
      return { t, arrival: 50 + t + 0.03 + rng.range(0, 0.012), x: 100 + speed * t };
    });
    let next = 0;
    const xs: number[] = [];
    const expected: number[] = [];
    for (let frame = 0; frame < 2.8 * 120; frame += 1) {
      const now = 50 + frame / 120;
      while (sends[next] && sends[next]!.arrival <= now) {
        const s = sends[next]!;
        v.applySnapshot(snap(next * 2, s.t, [at('me', 800, 800), ['run', s.x, 300, speed, 0, 0, 0, 0, -1]]), now);
        next += 1;
      }
      const run = v.sample(now).players.find((p) => p.id === 'run');
      if (frame >= 120 && run) {
        xs.push(run.x);
        expected.push(100 + speed * (now - 50 - 0.03 - 0.1)); // host time minus the least delay minus 100 ms
      }
    }
    const deltas = xs.slice(1).map((x, i) => x - xs[i]!);
    const ideal = speed / 120;
    expect(deltas.length).toBeGreaterThan(150);
    expect(Math.min(...deltas)).toBeGreaterThan(ideal * 0.95);
    expect(Math.max(...deltas)).toBeLessThan(ideal * 1.05);
    const lag = xs.map((x, i) => Math.abs(x - expected[i]!));
    expect(Math.max(...lag)).toBeLessThan(speed * 0.01); // within 10 ms of the intended moment
  });

  /** A runner at 300 units/s, snapshotted at 30 Hz, arriving 30 ms later, except the `lost` ones; frames at 120 Hz. */
  function runWithLoss(lost: (index: number) => boolean, maxExtrapolation?: number, seconds = 2) {
    const v = view({ interpolationDelay: 0.1, maxExtrapolation });
    let next = 0;
    const xs: number[] = [];
    for (let frame = 0; frame < seconds * 120; frame += 1) {
      const now = 20 + frame / 120;
      while (20 + next / 30 + 0.03 <= now) {
        const t = next / 30;
        const runner: SnapshotPlayer = ['run', 100 + 300 * t, 300, 300, 0, 0, 0, 0, -1];
        if (!lost(next)) v.applySnapshot(snap(next * 2, t, [at('me', 800, 800), runner]), now);
        next += 1;
      }
      if (frame >= 60) xs.push(v.sample(now).players.find((p) => p.id === 'run')!.x);
    }
    return Object.assign(
      xs.slice(1).map((x, i) => x - xs[i]!),
      { last: xs.at(-1)! },
    );
  }

  it('keeps a remote player moving through a gap of lost snapshots, with no freeze and no jump', () => {
    const lostRun = (i: number) => i >= 30 && i < 34; // 133 ms without news: longer than the 100 ms delay
    const ideal = 300 / 120;
    const smooth = runWithLoss(lostRun);
    expect(Math.min(...smooth)).toBeGreaterThan(ideal * 0.9);
    expect(Math.max(...smooth)).toBeLessThan(ideal * 1.1);
    // Without extrapolation the same gap freezes the runner, then jumps it forward.
    const frozen = runWithLoss(lostRun, 0);
    expect(Math.min(...frozen)).toBe(0);
    expect(Math.max(...frozen)).toBeGreaterThan(ideal * 2);
  });

  it('extrapolates at most maxExtrapolation when snapshots stop for good', () => {
    const deltas = runWithLoss((i) => i >= 30, 0.1, 3);
    const moved = deltas.slice(-120).reduce((a, b) => a + b, 0); // the last second: long after the stream stopped
    expect(moved).toBe(0);
    // The last snapshot had the runner at 100 + 300 × 29/30 = 390; it is drawn 0.1 s × 300 = 30 further, then held.
    expect(deltas.last).toBeCloseTo(420, 1);
  });

  it('says which players it drew past their newest snapshot (extrapolated), never the local one', () => {
    const v = view({ interpolationDelay: 0.1 });
    const flags = (now: number) => {
      const players = v.sample(now).players;
      return [players.find((p) => p.id === 'run')!.extrapolated, players.find((p) => p.self)!.extrapolated];
    };
    // 30 snapshots a second arriving 30 ms after they were sent, for one second: drawn between two, 100 ms back.
    for (let i = 0; i < 30; i += 1) {
      const runner: SnapshotPlayer = ['run', 100 + 10 * i, 300, 300, 0, 0, 0, 0, -1];
      v.applySnapshot(snap(i * 2, i / 30, [at('me', 800, 800), runner]), 20 + i / 30 + 0.03);
      expect(flags(20 + i / 30 + 0.03)).toEqual([false, false]);
    }
    // Then silence: 100 ms after the last one arrived the drawn moment is past it.
    const last = 20 + 29 / 30 + 0.03;
    expect(flags(last + 0.2)).toEqual([true, false]);
  });

  it('shows who is "it" when the interpolated moment reaches it, and forgets players who left', () => {
    const v = view({ interpolationDelay: 0.1 });
    v.applySnapshot(snap(1, 0, [at('me', 0, 0), at('a', 100, 100), at('b', 200, 200)]), 10);
    v.applySnapshot(snap(3, 0.05, [at('me', 0, 0), at('a', 110, 100, -1, 1), at('b', 200, 200)]), 10.05);
    const early = v.sample(10.1).players.find((p) => p.id === 'a')!;
    expect(early.it).toBe(false); // drawn at host time 0.0: not yet tagged
    expect(early.x).toBeCloseTo(100, 6);
    expect(v.sample(10.15).players.find((p) => p.id === 'a')?.it).toBe(true);
    v.applySnapshot(snap(5, 0.1, [at('me', 0, 0), at('a', 120, 100, -1, 1)]), 10.1);
    expect(v.sample(10.2).players.map((p) => p.id)).toEqual(['me', 'a']);
    const frame = v.sample(10.2);
    expect(frame).toMatchObject({ tick: 5, phase: 'playing', timeRemaining: 60 });
  });
});
