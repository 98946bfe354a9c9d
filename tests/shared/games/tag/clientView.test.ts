import { describe, expect, it } from 'vitest';
import { ClientView, type ClientControls, type ViewPlayer } from '../../../../shared/games/tag/client/clientView';
import { createGame } from '../../../../shared/games/tag/createGame';
import { GAME_TICK_DT } from '../../../../shared/game/gameProtocol';
import { toSnapshot, type GameSnapshot, type SnapshotPlayer } from '../../../../shared/games/tag/wire/snapshot';
import { step } from '../../../../shared/games/tag/step';
import type { GameState, PlayerInput } from '../../../../shared/games/tag/types';
import { OPEN_ARENA } from './fixtures';

const IDLE: ClientControls = { moveX: 0, moveY: 0, tag: false };

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

function self(view: ClientView, now: number): ViewPlayer {
  const found = view.sample(now).players.find((p) => p.self);
  if (!found) throw new Error('no local player');
  return found;
}

function view(options: Partial<ConstructorParameters<typeof ClientView>[0]> = {}): ClientView {
  return new ClientView({ playerId: 'me', arena: OPEN_ARENA, ...options });
}

describe('ClientView local ticks', () => {
  it('produces no input before a snapshot shows the local player, then one per 60 Hz tick', () => {
    const v = view();
    expect(v.advance(0, { moveX: 1, moveY: 0, tag: false })).toEqual([]);
    v.applySnapshot(snap(1, 0, [at('other', 10, 10)]), 0);
    expect(v.advance(0, { moveX: 1, moveY: 0, tag: false })).toEqual([]);
    v.applySnapshot(snap(2, 0.03, [at('me', 500, 400), at('other', 10, 10)]), 0.01);
    const first = v.advance(0.01, { moveX: 1, moveY: 1, tag: false });
    expect(first).toEqual([{ sequence: 1, moveX: 0.707, moveY: 0.707, tag: false }]);
    const more = v.advance(0.01 + 0.105, { moveX: -0.3, moveY: 5, tag: false });
    expect(more.map((i) => i.sequence)).toEqual([2, 3, 4, 5, 6, 7]);
    // Axes are normalised, then quantised to 1/1000 so what is sent is exactly what was predicted with.
    expect(more[0]).toMatchObject({ moveX: -0.287, moveY: 0.958 });
    expect(v.pendingInputs).toBe(7);
    expect(v.predicted!.y).toBeGreaterThan(400);
  });

  it('latches a short tag press until the next tick, and sends it once', () => {
    const v = view();
    v.applySnapshot(snap(1, 0, [at('me', 500, 400)]), 0);
    v.advance(0, IDLE);
    expect(v.advance(0.005, { ...IDLE, tag: true })).toEqual([]); // no tick due during the press
    const next = v.advance(2 * GAME_TICK_DT + 0.001, IDLE);
    expect(next.map((i) => i.tag)).toEqual([true, false]);
  });

  it('after a stall runs at most maxCatchUpTicks and does not replay the rest', () => {
    const v = view({ maxCatchUpTicks: 8 });
    v.applySnapshot(snap(1, 0, [at('me', 500, 400)]), 0);
    expect(v.advance(10, IDLE)).toHaveLength(8);
    expect(v.advance(10 + GAME_TICK_DT / 2, IDLE)).toHaveLength(0);
    expect(v.advance(10 + GAME_TICK_DT + 1e-9, IDLE)).toHaveLength(1);
  });

  it('rejects nonsensical options', () => {
    expect(() => view({ interpolationDelay: -0.1 })).toThrow(RangeError);
    expect(() => view({ correctionTime: 0 })).toThrow(RangeError);
    expect(() => view({ snapDistance: NaN })).toThrow(RangeError);
    expect(view({ interpolationDelay: 0 }).interpolationDelay).toBe(0);
  });
});

describe('ClientView prediction and reconciliation', () => {
  /**
   * Runs a host (the shared rules) and one client with 4 ticks of latency each way, snapshots every 2nd tick, the
   * client steering in a circle for 1.5 s and then letting go. Returns the view and the host.
   */
  function playAgainstHost() {
    let host: GameState = createGame({
      players: [
        { id: 'me', name: 'Me' },
        { id: 'x', name: 'X' },
      ],
      seed: 4,
      arena: OPEN_ARENA,
    });
    const v = view();
    const up: { input: PlayerInput; at: number }[] = [];
    const down: { snapshot: GameSnapshot; at: number }[] = [];
    let ack = -1;
    const displayedErrors: number[] = [];
    for (let tick = 0; tick < 180; tick += 1) {
      const now = tick * GAME_TICK_DT + 1e-6;
      while (down[0] && down[0].at <= tick) v.applySnapshot(down.shift()!.snapshot, now);
      const steering = tick < 90 ? { moveX: Math.cos(tick / 9), moveY: Math.sin(tick / 9), tag: false } : IDLE;
      for (const input of v.advance(now, steering)) up.push({ input, at: tick + 4 });
      const arrived = up[0] && up[0].at <= tick ? up.shift()!.input : undefined;
      if (arrived) ack = arrived.sequence;
      host = step(host, arrived ? { me: arrived } : {}, GAME_TICK_DT);
      if (tick % 2 === 0) down.push({ snapshot: toSnapshot(host, { me: ack }), at: tick + 4 });
      if (tick >= 150) {
        const me = host.players.find((p) => p.id === 'me')!;
        const shown = self(v, now);
        displayedErrors.push(Math.hypot(shown.x - me.x, shown.y - me.y));
      }
    }
    return { v, displayedErrors };
  }

  it('agrees with the host: corrections stay at snapshot rounding, and at rest it shows the host position', () => {
    const { v, displayedErrors } = playAgainstHost();
    const stats = v.stats();
    expect(stats.snaps).toBe(0);
    expect(stats.largestCorrection).toBeLessThan(0.1);
    expect(Math.max(...displayedErrors)).toBeLessThan(0.05);
  });

  function settled(): ClientView {
    const v = view();
    v.applySnapshot(snap(1, 0, [at('me', 500, 400)]), 0);
    v.advance(0, IDLE);
    v.advance(0.1, IDLE); // seven idle inputs, nothing moves
    return v;
  }

  it('blends a misprediction out over about 100 ms instead of snapping', () => {
    const v = settled();
    const before = self(v, 0.1);
    expect(before).toMatchObject({ x: 500, y: 400 });
    v.applySnapshot(snap(10, 0.15, [at('me', 510, 400, 7)]), 0.1); // host says: 10 units to the right
    expect(v.predicted).toMatchObject({ x: 510, y: 400 });
    expect(self(v, 0.1).x).toBeCloseTo(500, 6); // no visible jump
    const halfway = self(v, 0.13).x;
    expect(halfway).toBeGreaterThan(505);
    expect(halfway).toBeLessThan(510);
    expect(self(v, 0.2).x).toBeGreaterThan(509.5); // ≤ 5% left after 100 ms
    expect(self(v, 0.3).x).toBeCloseTo(510, 1);
    expect(v.stats()).toMatchObject({ corrections: 1, snaps: 0, largestCorrection: 10 });
  });

  it('snaps when the error is larger than snapDistance', () => {
    const v = settled();
    v.applySnapshot(snap(10, 0.15, [at('me', 900, 400, 7)]), 0.1);
    expect(self(v, 0.1).x).toBe(900);
    expect(v.stats()).toMatchObject({ corrections: 1, snaps: 1 });
  });

  it('replays unacknowledged inputs on top of the host state, and ignores an older snapshot', () => {
    const v = settled();
    const moving = v.advance(0.1 + 3 * GAME_TICK_DT + 0.001, { moveX: 1, moveY: 0, tag: false });
    expect(moving.map((i) => i.sequence)).toEqual([8, 9, 10]);
    const predicted = v.predicted!;
    // The host has processed up to 7 (all idle): replaying 8..10 reproduces the prediction, nothing to correct.
    v.applySnapshot(snap(20, 0.2, [at('me', 500, 400, 7)]), 0.16);
    expect(v.predicted).toEqual(predicted);
    v.applySnapshot(snap(19, 0.19, [at('me', 300, 400, 7)]), 0.16); // older tick, arriving late: ignored
    expect(v.predicted).toEqual(predicted);
    expect(v.stats()).toMatchObject({ corrections: 0, staleSnapshots: 1 });
  });
});

describe('ClientView during the round countdown', () => {
  it('sends still inputs while the host counts down, shows the countdown, then moves', () => {
    const v = view();
    v.applySnapshot({ ...snap(1, 0, [at('me', 500, 400)]), c: 2.4 }, 0);
    expect(v.sample(0).countdown).toBe(2.4);
    const frozen = v.advance(0.1, { moveX: 1, moveY: 0, tag: true });
    expect(frozen.length).toBeGreaterThan(0);
    expect(frozen.every((i) => i.moveX === 0 && i.moveY === 0 && !i.tag)).toBe(true);
    expect(self(v, 0.1).x).toBe(500);
    v.applySnapshot({ ...snap(2, 0.1, [at('me', 500, 400)]), c: 0 }, 0.1);
    expect(v.sample(0.1).countdown).toBe(0);
    const moving = v.advance(0.2, { moveX: 1, moveY: 0, tag: false });
    expect(moving.some((i) => i.moveX === 1)).toBe(true);
    expect(v.predicted!.x).toBeGreaterThan(500);
  });

  it("passes each player's tag-back immunity through (the flagged cooldown slot)", () => {
    const v = view();
    const immune: SnapshotPlayer = ['other', 10, 10, 0, 0, 4, 0, 2.5, -1];
    v.applySnapshot(snap(1, 0, [at('me', 500, 400), immune]), 0);
    const players = v.sample(0).players;
    expect(players.find((p) => p.id === 'other')?.immunity).toBe(2.5);
    expect(players.find((p) => p.id === 'me')?.immunity).toBe(0);
  });
});
