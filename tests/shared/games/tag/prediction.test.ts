import { describe, expect, it } from 'vitest';
import { createGame } from '../../../../shared/games/tag/createGame';
import { applyMove } from '../../../../shared/games/tag/movement';
import { decodeSnapshotPlayers, toSnapshot } from '../../../../shared/games/tag/wire/snapshot';
import { RULES } from '../../../../shared/games/tag/rules';
import { step } from '../../../../shared/games/tag/step';
import type { GameState, PlayerBody, PlayerInput } from '../../../../shared/games/tag/types';
import { PredictionBuffer } from '../../../../shared/net/predictionBuffer';
import { SeededRandom } from '../../../../shared/random/prng';
import { player } from './fixtures';

const DT = 1 / 60;
const LATENCY_TICKS = 5;

function bodyOf(state: GameState, id: string): PlayerBody {
  const { x, y, vx, vy, it } = player(state, id);
  return { x, y, vx, vy, it };
}

/**
 * Client "a" predicts its own movement with applyMove and a PredictionBuffer; the host steps the shared rules with
 * each input five ticks later; snapshots come back five ticks after that. The arena has obstacles and walls, and
 * the inputs are random, so collisions are part of what must agree.
 */
function simulate(roundSnapshots: boolean) {
  const rng = new SeededRandom(21);
  let host = createGame({
    players: [
      { id: 'a', name: 'A' },
      { id: 'b', name: 'B' },
    ],
    seed: 8,
    countdown: 0,
  });
  const arena = host.arena;
  const buffer = new PredictionBuffer<PlayerInput, PlayerBody>();
  const applyInput = (s: PlayerBody, input: PlayerInput, dt: number) => applyMove(s, input, dt, arena);
  let predicted = bodyOf(host, 'a');
  const toHost: PlayerInput[] = [];
  const toClient: { ack: number; body: PlayerBody; deliverAt: number }[] = [];
  let lastProcessed = -1;
  const errors: number[] = [];
  let wallContacts = 0;
  for (let tick = 0; tick < 600; tick += 1) {
    const input: PlayerInput = { sequence: tick, moveX: rng.range(-0.3, 1.2), moveY: rng.range(-0.3, 1.2), tag: false };
    predicted = applyInput(predicted, input, DT);
    buffer.record({ sequence: tick, input, dt: DT, predictedState: predicted });
    toHost.push(input);

    const arrived = tick >= LATENCY_TICKS ? toHost[tick - LATENCY_TICKS] : undefined;
    host = step(host, arrived ? { a: arrived } : {}, DT);
    if (arrived) lastProcessed = arrived.sequence;
    const a = player(host, 'a');
    if (a.x === arena.width - RULES.playerRadius || a.y === arena.height - RULES.playerRadius) wallContacts += 1;
    if (tick % 3 === 0 && lastProcessed >= 0) {
      const sent = roundSnapshots
        ? decodeSnapshotPlayers(toSnapshot(host, { a: lastProcessed })).find((p) => p.id === 'a')!
        : bodyOf(host, 'a');
      const { x, y, vx, vy, it } = sent;
      toClient.push({ ack: lastProcessed, body: { x, y, vx, vy, it }, deliverAt: tick + LATENCY_TICKS });
    }
    while (toClient[0] && toClient[0].deliverAt <= tick) {
      const snap = toClient.shift()!;
      const reconciled = buffer.reconcile({
        lastProcessedSequence: snap.ack,
        authoritativeState: snap.body,
        applyInput,
      });
      if (reconciled === undefined) throw new Error('unexpected stale snapshot');
      errors.push(Math.hypot(reconciled.x - predicted.x, reconciled.y - predicted.y));
      predicted = reconciled;
    }
  }
  return { errors, buffer, wallContacts };
}

describe('client prediction against the host', () => {
  it('agrees exactly when replaying from the host state', () => {
    const { errors, buffer, wallContacts } = simulate(false);
    expect(errors.length).toBeGreaterThan(150);
    expect(errors.every((e) => e === 0)).toBe(true);
    expect(buffer.pendingCount).toBeLessThanOrEqual(2 * LATENCY_TICKS + 3);
    // The inputs drift down-right, so "a" spends many ticks pressed against the walls: collisions were replayed too.
    expect(wallContacts).toBeGreaterThan(50);
  });

  it('stays within rounding error when replaying from a rounded snapshot', () => {
    const { errors } = simulate(true);
    expect(Math.max(...errors)).toBeLessThan(0.1);
  });
});
