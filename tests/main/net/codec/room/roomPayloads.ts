import { createGame } from '../../../../../shared/games/tag/createGame';
import { DEFAULT_ARENA } from '../../../../../shared/games/tag/rules';
import { stepWithEvents } from '../../../../../shared/games/tag/step';
import { toSnapshot } from '../../../../../shared/games/tag/wire/snapshot';
import type { GameState, PlayerInput } from '../../../../../shared/games/tag/types';

/** A `game.snapshot` payload as the host broadcasts it: `players` tag players after `ticks` ticks of steering. */
export function snapshotPayload(players: number, ticks = 90, gameId = 4242): Record<string, unknown> {
  let state: GameState = createGame({
    players: Array.from({ length: players }, (_, id) => ({ id: String(id), name: `P${id}` })),
    seed: players,
    roundDuration: 600,
    arena: DEFAULT_ARENA,
  });
  for (let t = 1; t <= ticks; t++) {
    const inputs = new Map(state.players.map((p, i) => [p.id, steer(i, t)] as const));
    state = stepWithEvents(state, inputs, 1 / 60).state;
  }
  const acks = new Map(state.players.map((p, i) => [p.id, i === 0 ? undefined : ticks - i] as const));
  const defined = new Map([...acks].filter((entry): entry is [string, number] => entry[1] !== undefined));
  return { ...toSnapshot(state, defined), g: gameId };
}

/** Steering that differs per player and tick. */
export function steer(player: number, sequence: number): PlayerInput {
  const a = sequence / 40 + player;
  return { sequence, moveX: Math.cos(a), moveY: Math.sin(a * 1.3), tag: sequence % 7 === player };
}

/** A `game.input` payload as a tag client sends it: the last five inputs up to `sequence`. */
export function inputPayload(sequence: number, gameId = 4242): Record<string, unknown> {
  const first = Math.max(1, sequence - 4);
  const i = Array.from({ length: sequence - first + 1 }, (_, k) => {
    const input = steer(3, first + k);
    return [input.sequence, input.moveX, input.moveY, input.tag ? 1 : 0];
  });
  return { g: gameId, d: 0.117, i };
}

/** What a JSON link would have delivered for `payload`. */
export function viaJson(payload: unknown): unknown {
  return JSON.parse(JSON.stringify(payload));
}
