import type { GameDefinition } from '../gameDefinition';
import { directionButtons, type GameControls } from '../gameControls';
import { CyclesView, type CyclesControls, type CyclesFrame } from './clientView';
import { createRound, type RoundOptions } from './createRound';
import { cycleInputCodec, type CycleInputTuple } from './input';
import { RULES } from './rules';
import { parseSnapshot, toSnapshot, type CyclesSnapshot } from './snapshot';
import { endRoundNow, removeCycle, step } from './step';
import type { Cycle, CycleInput, CyclesEvent, CyclesState, Heading } from './types';
import { cyclesWire } from './wire';

/** The light-cycles definition with its own types filled in. */
export type LightCyclesDefinition = GameDefinition<
  CyclesState,
  CycleInput,
  CyclesSnapshot,
  CyclesEvent,
  CyclesControls,
  CyclesFrame,
  CycleInputTuple
>;

const HEADINGS: readonly (readonly [string, Heading])[] = [
  ['up', 0],
  ['right', 1],
  ['down', 2],
  ['left', 3],
];

/** A press of an arrow (or WASD, or the pad's cross) turns that way, once per press. */
export const cyclesControls: GameControls<CyclesControls> = {
  buttons: directionButtons('press'),
  read: (state) => ({ turn: HEADINGS.find(([id]) => state.pressed.has(id))?.[1] ?? -1 }),
};

/** How many riders `cycle` outlived: the ranking (riders out on the same tick tie, as do riders still riding). */
export function outlasted(cycles: readonly Cycle[], cycle: Cycle): number {
  const out = cycle.crashedAt ?? Infinity;
  return cycles.filter((c) => c !== cycle && c.crashedAt !== null && c.crashedAt < out).length;
}

function joinNames(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** Light cycles as a game definition; tests make one on a smaller grid or without the 3-2-1. */
export function createLightCycles(options: RoundOptions = {}): LightCyclesDefinition {
  const size = { width: options.width ?? RULES.width, height: options.height ?? RULES.height };
  return {
    id: 'light-cycles',
    name: 'Light Cycles',
    description: 'Ride, turn, and never touch a trail or a wall. The last cycle riding wins the round.',
    minPlayers: RULES.minPlayers,
    maxPlayers: RULES.maxPlayers,
    roundDuration: RULES.roundDuration,
    create: (setup) => createRound(setup, options),
    step: (state, inputs, dt) => step(state, inputs, dt),
    removePlayer: removeCycle,
    players: (state) => state.cycles,
    phase: (state) => state.phase,
    endRound: endRoundNow,
    standings: (state) => ({
      winners: state.winnerIds,
      scores: state.cycles.map((c) => ({ id: c.id, score: outlasted(state.cycles, c), stat: c.cells })),
    }),
    input: cycleInputCodec,
    snapshot: { of: toSnapshot, parse: parseSnapshot },
    wire: cyclesWire,
    controls: cyclesControls,
    results: {
      scoreMeasure: 'outlasted',
      formatScore: (score) => `${score} rider${score === 1 ? '' : 's'}`,
      formatStat: (stat) => `${stat} cell${stat === 1 ? '' : 's'}`,
      headline: (winners, youWon) => {
        if (winners.length > 1) return `A draw: ${joinNames(winners)} share the round!`;
        return youWon ? 'You are the last cycle riding!' : `${winners[0]} is the last cycle riding!`;
      },
    },
    createView: ({ playerId, interpolationDelay }) => new CyclesView(playerId, interpolationDelay, size),
  };
}

/** Light cycles on the standard 64 × 36 grid, as registered. */
export const lightCyclesGame: LightCyclesDefinition = createLightCycles();
