import { MAX_GAME_PLAYERS, MAX_ROUND_DURATION } from '../game/gameProtocol';
import { createRegistry, type Registry } from './createRegistry';
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
}

/** A registry of game definitions; throws on a bad id, a repeated id or impossible player limits. */
export function createGameRegistry(games: readonly GameDefinition[]): GameRegistry {
  for (const game of games) assertDefinition(game);
  return createRegistry(games);
}
