import { seedState } from '../../random/prng';
import { insertPlayer, type NewPlayer } from './players';
import { startRound } from './round';
import { DEFAULT_ARENA, RULES } from './rules';
import type { Arena, GameState } from './types';

/** Options of {@link createGame}. */
export interface CreateGameOptions {
  /** Initial players (0–16); with 2 or more a round starts at once. */
  readonly players?: readonly NewPlayer[];
  /** Seed of every random choice (spawn points, who is "it"): the same seed and calls give the same game. */
  readonly seed: number;
  /** Round length in seconds. Default RULES.roundDuration (90). */
  readonly roundDuration?: number;
  /** Playing field. Default DEFAULT_ARENA (1600×900 with five obstacles). */
  readonly arena?: Arena;
  /** Seconds of the frozen 3-2-1 before each round. Default RULES.roundCountdown (3); 0 starts at once. */
  readonly countdown?: number;
}

function assertArena(arena: Arena): void {
  const minSide = 4 * RULES.playerRadius;
  if (!(arena.width >= minSide && arena.height >= minSide && Number.isFinite(arena.width + arena.height))) {
    throw new RangeError(`arena must be at least ${minSide}×${minSide} units`);
  }
  for (const o of arena.obstacles) {
    if (![o.x, o.y, o.width, o.height].every(Number.isFinite) || o.width < 0 || o.height < 0) {
      throw new RangeError(`obstacle ${JSON.stringify(o)} must have finite position and non-negative size`);
    }
  }
}

/** Creates a game: players added, and a round started (spread spawns, countdown) when there are enough. */
export function createGame(options: CreateGameOptions): GameState {
  const roundDuration = options.roundDuration ?? RULES.roundDuration;
  if (!Number.isFinite(roundDuration) || roundDuration <= 0) {
    throw new RangeError(`roundDuration must be a positive number of seconds, got ${String(roundDuration)}`);
  }
  const countdown = options.countdown ?? RULES.roundCountdown;
  if (!Number.isFinite(countdown) || countdown < 0) {
    throw new RangeError(`countdown must be a non-negative number of seconds, got ${String(countdown)}`);
  }
  const arena = options.arena ?? DEFAULT_ARENA;
  assertArena(arena);
  let state: GameState = {
    arena,
    roundDuration,
    players: [],
    phase: 'waiting',
    timeRemaining: roundDuration,
    roundCountdown: countdown,
    countdown: 0,
    elapsed: 0,
    tick: 0,
    winnerIds: [],
    rngState: seedState(options.seed),
  };
  for (const player of options.players ?? []) state = insertPlayer(state, player);
  return state.players.length >= RULES.minPlayers ? startRound(state) : state;
}
