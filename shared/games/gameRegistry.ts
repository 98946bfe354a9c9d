import { MAX_GAME_PLAYERS, MAX_ROUND_DURATION } from '../game/gameProtocol';
import { createRegistry, type Registry } from './createRegistry';
import { assertControls } from './gameControls';
import type { GameDefinition } from './gameDefinition';

/** Game definitions by id. */
export type GameRegistry = Registry<GameDefinition>;

function assertDefinition(game: GameDefinition): void {
  const { id, minPlayers, maxPlayers, roundDuration } = game;
  if (!(Number.isInteger(minPlayers) && minPlayers >= 1 && minPlayers <= maxPlayers)) {
    throw new RangeError(`game ${id}: minPlayers must be a whole number 1–maxPlayers, got ${minPlayers}`);
  }
  if (!(Number.isInteger(maxPlayers) && maxPlayers <= MAX_GAME_PLAYERS)) {
    throw new RangeError(`game ${id}: maxPlayers must be a whole number up to ${MAX_GAME_PLAYERS}, got ${maxPlayers}`);
  }
  if (!(roundDuration > 0 && roundDuration <= MAX_ROUND_DURATION)) {
    throw new RangeError(`game ${id}: roundDuration must be in (0, ${MAX_ROUND_DURATION}] s, got ${roundDuration}`);
  }
  if (game.name.trim() === '') throw new RangeError(`game ${id}: name is empty`);
  assertControls(id, game.controls);
  // No silent JSON: a game without binary formats says so (JSON_GAME_WIRE).
  const wire = game.wire as GameDefinition['wire'] | undefined;
  if (wire?.kind !== 'json' && !(wire?.kind === 'binary' && Number.isInteger(wire.version) && wire.version >= 1)) {
    throw new RangeError(`game ${id}: wire must be JSON_GAME_WIRE or a binary wire with a whole version >= 1`);
  }
}

/** A registry of game definitions; throws on a bad id, a repeated id or impossible player limits. */
export function createGameRegistry(games: readonly GameDefinition[]): GameRegistry {
  for (const game of games) assertDefinition(game);
  return createRegistry(games);
}
