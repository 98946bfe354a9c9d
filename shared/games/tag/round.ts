import { SeededRandom } from '../../random/prng';
import { RULES } from './rules';
import { spreadSpawns } from './spawns';
import type { GameState, PlayerId, PlayerState } from './types';

/** Ids of the highest scorers (all of them on a tie), in join order; empty without players. */
export function winnersOf(players: readonly PlayerState[]): PlayerId[] {
  let best = -Infinity;
  for (const p of players) if (p.score > best) best = p.score;
  return players.filter((p) => p.score === best).map((p) => p.id);
}

/**
 * The round over now, as if its time had run out: no time left, whoever has the most seconds not "it" so far wins
 * (during the 3-2-1 nobody has scored, so everyone ties). A round not playing is returned unchanged.
 */
export function endRoundNow(state: GameState): GameState {
  if (state.phase !== 'playing') return state;
  return { ...state, phase: 'ended', timeRemaining: 0, countdown: 0, winnerIds: winnersOf(state.players) };
}

/** The player who is "it", if any. */
export function currentIt(state: GameState): PlayerState | undefined {
  return state.players.find((p) => p.it);
}

/**
 * Makes the player at `index` "it" (with a tag cooldown so the others get a head start, and no immunity: "it" is
 * never immune) and nobody else.
 */
export function withIt(players: readonly PlayerState[], index: number): PlayerState[] {
  return players.map((p, i) =>
    i === index ? { ...p, it: true, cooldown: RULES.tagCooldown, immunity: 0 } : p.it ? { ...p, it: false } : p,
  );
}

/** State with nobody "it", waiting for enough players: the timer shows a full round. */
export function toWaiting(state: GameState): GameState {
  return {
    ...state,
    phase: 'waiting',
    timeRemaining: state.roundDuration,
    countdown: 0,
    players: state.players.map((p) => (p.it ? { ...p, it: false } : p)),
  };
}

/**
 * Starts a fresh round: scores, tag counts, cooldowns and immunity reset, everyone placed apart around the arena
 * (spreadSpawns) and at rest, a random player becomes "it", the timer restarts after the countdown
 * (state.roundCountdown seconds, during which step() freezes the game). With fewer than RULES.minPlayers players the
 * game goes (or stays) in the waiting phase instead.
 */
export function startRound(state: GameState): GameState {
  if (state.players.length < RULES.minPlayers) return toWaiting(state);
  const rng = new SeededRandom(state.rngState);
  const itIndex = rng.int(state.players.length);
  const spots = spreadSpawns(state.arena, state.players.length, rng);
  const reset = state.players.map((p, i) => ({
    ...p,
    ...spots[i]!,
    vx: 0,
    vy: 0,
    score: 0,
    tags: 0,
    cooldown: 0,
    immunity: 0,
    it: false,
  }));
  return {
    ...state,
    phase: 'playing',
    timeRemaining: state.roundDuration,
    countdown: state.roundCountdown,
    winnerIds: [],
    players: withIt(reset, itIndex),
    rngState: rng.state,
  };
}
