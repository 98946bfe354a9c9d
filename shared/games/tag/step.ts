import { NEUTRAL_INPUT, normalizeInput } from './input';
import { applyMove, assertDt } from './movement';
import { RULES } from './rules';
import { winnersOf } from './round';
import { resolveTag } from './tagging';
import type { GameEvent, GameState, PlayerId, PlayerInput, TargetPositionLookup } from './types';

/** This tick's inputs, at most one per player; players without one get NEUTRAL_INPUT. */
export type StepInputs = ReadonlyMap<PlayerId, PlayerInput> | Readonly<Record<PlayerId, PlayerInput>>;

/** Optional hooks of {@link step}. */
export interface StepOptions {
  /** Where a tag target was as the tagger saw it (host-side lag compensation); default: its current position. */
  readonly targetPositionAt?: TargetPositionLookup;
}

/** What {@link stepWithEvents} produced. */
export interface StepResult {
  readonly state: GameState;
  readonly events: readonly GameEvent[];
  /** Inputs ignored because no such player exists or the input was not an object. */
  readonly droppedInputs: number;
}

/** `seconds` less `h`, never below 0; a float residue (3 s after 180 ticks of 1/60 s) counts as run out. */
function tickDown(seconds: number, h: number): number {
  return seconds - h > 1e-9 ? seconds - h : 0;
}

function readInputs(state: GameState, inputs: StepInputs): { byId: Map<PlayerId, PlayerInput>; dropped: number } {
  const entries: [string, unknown][] = inputs instanceof Map ? [...inputs.entries()] : Object.entries(inputs);
  const known = new Set(state.players.map((p) => p.id));
  const byId = new Map<PlayerId, PlayerInput>();
  let dropped = 0;
  for (const [id, input] of entries) {
    if (known.has(id) && typeof input === 'object' && input !== null)
      byId.set(id, normalizeInput(input as PlayerInput));
    else dropped += 1;
  }
  return { byId, dropped };
}

/**
 * Advances the game by `dt` seconds (capped at RULES.maxDt). During a round's countdown only the countdown runs.
 * Otherwise, in order: cooldowns and tag-back immunity tick down; everyone moves (players
 * pass through each other); while playing, every non-"it" player scores the elapsed time, "it" may tag, and the
 * round ends when the timer runs out. Pure: returns a new state plus what happened.
 */
export function stepWithEvents(
  state: GameState,
  inputs: StepInputs,
  dt: number,
  options: StepOptions = {},
): StepResult {
  assertDt(dt);
  const h = Math.min(dt, RULES.maxDt);
  const { byId, dropped } = readInputs(state, inputs);
  if (state.phase === 'playing' && state.countdown > 0) {
    // The 3-2-1: inputs are read (and so acknowledged) but nobody moves, tags or scores, and the clock waits.
    const countdown = tickDown(state.countdown, h);
    return {
      state: { ...state, countdown, elapsed: state.elapsed + h, tick: state.tick + 1 },
      events: [],
      droppedInputs: dropped,
    };
  }
  const playing = state.phase === 'playing';
  const scored = playing ? Math.min(h, state.timeRemaining) : 0;
  let players = state.players.map((p) => {
    const moved = applyMove(p, byId.get(p.id) ?? NEUTRAL_INPUT, h, state.arena);
    const cooldown = Math.max(0, p.cooldown - h);
    const immunity = tickDown(p.immunity, h);
    return { ...moved, cooldown, immunity, score: p.it ? p.score : p.score + scored };
  });
  const events: GameEvent[] = [];
  const itIndex = players.findIndex((p) => p.it);
  const it = players[itIndex];
  if (playing && it !== undefined && it.cooldown <= 0 && byId.get(it.id)?.tag === true) {
    const tagged = resolveTag(players, itIndex, options.targetPositionAt);
    players = tagged.players;
    events.push(tagged.event);
  }
  let next: GameState = {
    ...state,
    players,
    elapsed: state.elapsed + h,
    tick: state.tick + 1,
    timeRemaining: playing ? Math.max(0, state.timeRemaining - h) : state.timeRemaining,
  };
  if (playing && next.timeRemaining <= 0) {
    next = { ...next, phase: 'ended', winnerIds: winnersOf(players) };
    events.push({ type: 'roundEnded', winnerIds: next.winnerIds });
  }
  return { state: next, events, droppedInputs: dropped };
}

/** {@link stepWithEvents} returning only the new state. */
export function step(state: GameState, inputs: StepInputs, dt: number, options: StepOptions = {}): GameState {
  return stepWithEvents(state, inputs, dt, options).state;
}
