import type { PlayerId, StepOutcome } from '../gameDefinition';
import { moveCycles, queueTurn } from './move';
import { RULES } from './rules';
import type { Cycle, CycleInput, CyclesEvent, CyclesState } from './types';

/** Who wins once at most one cycle rides: the one left, or (a draw) all who crashed in the final move. */
function winnersAfter(cycles: readonly Cycle[], crashed: readonly PlayerId[]): PlayerId[] {
  const riding = cycles.filter((c) => c.alive).map((c) => c.id);
  return riding.length === 1 ? riding : [...crashed];
}

function withTurn(cycle: Cycle, input: CycleInput | undefined, countdown: boolean): Cycle {
  if (!cycle.alive || input === undefined || input.turn === -1) return cycle;
  // Before the start a turn just picks the starting heading (there is no trail behind to reverse into).
  if (countdown) return input.turn === cycle.heading ? cycle : { ...cycle, heading: input.turn };
  const turns = queueTurn(cycle, input.turn);
  return turns === cycle.turns ? cycle : { ...cycle, turns };
}

/**
 * One tick: turns are queued (or, during the 3-2-1, set the starting heading); every RULES.moveTicks ticks all
 * cycles move (moveCycles); the round ends when at most one cycle rides, or at the bell (everyone still riding wins).
 */
export function step(
  state: CyclesState,
  inputs: ReadonlyMap<PlayerId, CycleInput>,
  dt: number,
): StepOutcome<CyclesState, CyclesEvent> {
  if (state.phase !== 'playing') return { state, events: [] };
  const counting = state.countdown > 0;
  let cycles = state.cycles.map((c) => withTurn(c, inputs.get(c.id), counting));
  const base = { ...state, tick: state.tick + 1, elapsed: state.elapsed + dt };
  if (counting) {
    const countdown = Math.max(0, state.countdown - dt);
    return { state: { ...base, cycles, countdown: countdown < 1e-9 ? 0 : countdown }, events: [] };
  }
  cycles = cycles.map((c) => (c.alive ? { ...c, survived: c.survived + dt } : c));
  const timeRemaining = Math.max(0, state.timeRemaining - dt);
  let next: CyclesState = { ...base, cycles, timeRemaining, sinceMove: state.sinceMove + 1 };
  const events: CyclesEvent[] = [];
  if (next.sinceMove >= RULES.moveTicks) {
    const moved = moveCycles(next);
    next = { ...next, cycles: moved.cycles, trail: moved.trail, sinceMove: 0 };
    events.push(...moved.crashes);
    if (moved.cycles.filter((c) => c.alive).length <= 1) {
      const winners = winnersAfter(
        moved.cycles,
        moved.crashes.map((c) => c.id),
      );
      next = { ...next, phase: 'ended', winnerIds: winners };
    }
  }
  if (next.phase === 'playing' && timeRemaining <= 0) {
    next = { ...next, phase: 'ended', winnerIds: next.cycles.filter((c) => c.alive).map((c) => c.id) };
  }
  if (next.phase === 'ended') events.push({ type: 'round-over', winners: next.winnerIds });
  return { state: next, events };
}

/**
 * The round over now, as at the bell: everyone still riding wins (during the 3-2-1, everyone). A round not playing
 * is returned unchanged.
 */
export function endRoundNow(state: CyclesState): CyclesState {
  if (state.phase !== 'playing') return state;
  const riding = state.cycles.filter((c) => c.alive).map((c) => c.id);
  return { ...state, phase: 'ended', timeRemaining: 0, countdown: 0, winnerIds: riding };
}

/** The round without that rider (its trail stays); too few riders left ends it, or stops it below two players. */
export function removeCycle(state: CyclesState, id: PlayerId): CyclesState {
  if (!state.cycles.some((c) => c.id === id)) return state;
  const cycles = state.cycles.filter((c) => c.id !== id);
  if (cycles.length < RULES.minPlayers) return { ...state, cycles, phase: 'waiting' };
  const riding = cycles.filter((c) => c.alive);
  if (state.phase === 'playing' && riding.length <= 1) {
    return { ...state, cycles, phase: 'ended', winnerIds: riding.map((c) => c.id) };
  }
  return { ...state, cycles, winnerIds: state.winnerIds.filter((w) => w !== id) };
}
