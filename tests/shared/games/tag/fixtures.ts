import { createGame } from '../../../../shared/games/tag/createGame';
import type { Arena, GameState, PlayerInput, PlayerState } from '../../../../shared/games/tag/types';

/** An arena without obstacles, so movement in tag tests is unobstructed. */
export const OPEN_ARENA: Arena = { width: 1600, height: 900, obstacles: [] };

/** A game with players a, b, c (as many as asked) on the open arena, its countdown skipped (0 unless asked). */
export function openGame(ids: readonly string[] = ['a', 'b', 'c'], roundDuration = 90, countdown = 0): GameState {
  return createGame({
    players: ids.map((id) => ({ id, name: id.toUpperCase() })),
    seed: 1,
    arena: OPEN_ARENA,
    roundDuration,
    countdown,
  });
}

/** Overwrites fields of the named players (test setup only; the rules never mutate state). */
export function withPlayers(state: GameState, changes: Record<string, Partial<PlayerState>>): GameState {
  return { ...state, players: state.players.map((p) => ({ ...p, ...changes[p.id] })) };
}

/** Makes `itId` "it" with no cooldown, everyone else not "it", all at rest. */
export function withIt(state: GameState, itId: string): GameState {
  return {
    ...state,
    players: state.players.map((p) => ({ ...p, it: p.id === itId, cooldown: 0, vx: 0, vy: 0 })),
  };
}

/** An input. */
export function input(moveX: number, moveY: number, tag = false, sequence = 0): PlayerInput {
  return { sequence, moveX, moveY, tag };
}

/** The player with `id`; throws if absent so tests fail loudly. */
export function player(state: GameState, id: string): PlayerState {
  const found = state.players.find((p) => p.id === id);
  if (!found) throw new Error(`no player ${id}`);
  return found;
}
