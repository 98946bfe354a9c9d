import { z } from 'zod';
import { MAX_INPUT_SEQUENCE } from '../../../../shared/game/gameProtocol';
import {
  JSON_GAME_WIRE,
  type GameDefinition,
  type GamePhase,
  type GamePlayer,
} from '../../../../shared/games/gameDefinition';

/**
 * A tiny game that is nothing like tag, for testing the game seam: no positions, no arena, no lag compensation.
 * Each press of the button scores one point; the first to PRESSES_TO_WIN presses ends the round.
 */
export const PRESSES_TO_WIN = 3;

/** A racer: the lobby player plus the presses so far. */
export interface RacePlayer extends GamePlayer {
  readonly presses: number;
}

/** The whole race. */
export interface RaceState {
  readonly players: readonly RacePlayer[];
  readonly phase: GamePhase;
  readonly tick: number;
}

/** One tick of one racer: pressed or not. */
export interface RaceInput {
  readonly sequence: number;
  readonly press: boolean;
}

/** A press on the wire: `[sequence, 0|1]`. */
export type RaceWire = readonly [sequence: number, press: 0 | 1];

/** `{ k: tick, c: [[id, presses, ack]] }`. */
export interface RaceSnapshot {
  readonly k: number;
  readonly c: readonly (readonly [id: string, presses: number, ack: number])[];
}

/** Someone pressed this tick. */
export type RaceEvent = { readonly type: 'pressed'; readonly id: string };

/** What the race's view draws: the newest standings and the view's own clock. */
export interface RaceFrame {
  readonly at: number;
  readonly latest: RaceSnapshot | undefined;
}

const sequence = z.number().int().min(1).max(MAX_INPUT_SEQUENCE);
const snapshotSchema = z.object({
  k: z.number().int().nonnegative(),
  c: z.array(z.tuple([z.string().min(1).max(8), z.number().int().nonnegative(), z.number().int().min(-1)])).max(4),
});

function phaseAfter(players: readonly RacePlayer[]): GamePhase {
  return players.some((p) => p.presses >= PRESSES_TO_WIN) ? 'ended' : 'playing';
}

/** The press race as a game definition (2–4 players, rounds up to 30 s). */
export const pressRace: GameDefinition<
  RaceState,
  RaceInput,
  RaceSnapshot,
  RaceEvent,
  { press: boolean },
  RaceFrame,
  RaceWire
> = {
  id: 'press-race',
  name: 'Press Race',
  description: 'First to press three times wins.',
  minPlayers: 2,
  maxPlayers: 4,
  roundDuration: 30,
  create: ({ players }) => ({
    players: players.map((p) => ({ ...p, presses: 0 })),
    phase: players.length >= 2 ? 'playing' : 'waiting',
    tick: 0,
  }),
  step(state, inputs) {
    const events: RaceEvent[] = [];
    const players = state.players.map((p) => {
      if (inputs.get(p.id)?.press !== true) return p;
      events.push({ type: 'pressed', id: p.id });
      return { ...p, presses: p.presses + 1 };
    });
    return { state: { players, phase: phaseAfter(players), tick: state.tick + 1 }, events };
  },
  removePlayer(state, id) {
    const players = state.players.filter((p) => p.id !== id);
    return { ...state, players, phase: players.length >= 2 ? state.phase : 'waiting' };
  },
  players: (state) => state.players,
  phase: (state) => state.phase,
  endRound: (state) => (state.phase === 'playing' ? { ...state, phase: 'ended' } : state),
  standings(state) {
    const best = Math.max(...state.players.map((p) => p.presses));
    return {
      winners: state.players.filter((p) => p.presses === best).map((p) => p.id),
      scores: state.players.map((p) => ({ id: p.id, score: p.presses, stat: p.presses })),
    };
  },
  input: {
    schema: z.strictObject({ sequence, press: z.boolean() }),
    wireSchema: z.tuple([sequence, z.union([z.literal(0), z.literal(1)])]),
    toWire: (input) => [input.sequence, input.press ? 1 : 0],
    fromWire: ([seq, press]) => ({ sequence: seq, press: press === 1 }),
    neutral: { sequence: 0, press: false },
    repeat: (last) => ({ ...last, press: false }),
    carry: (from, into) => (from.press && !into.press ? { ...into, press: true } : into),
  },
  snapshot: {
    of: (state, acks) => ({ k: state.tick, c: state.players.map((p) => [p.id, p.presses, acks.get(p.id) ?? -1]) }),
    parse(value) {
      const parsed = snapshotSchema.safeParse(value);
      return parsed.success ? parsed.data : undefined;
    },
  },
  controls: {
    buttons: [{ id: 'press', label: 'Press', keys: ['Space', 'Enter'], mode: 'press', slot: 'action' }],
    read: (state) => ({ press: state.pressed.has('press') }),
  },
  results: {
    scoreMeasure: 'presses',
    formatScore: (score) => `${score}`,
    formatStat: (stat) => `${stat} press${stat === 1 ? '' : 'es'}`,
    headline: (winners) => `${winners.join(' and ')} pressed first`,
  },
  // Its few messages are not worth a binary format: JSON, said explicitly.
  wire: JSON_GAME_WIRE,
  createView({ interpolationDelay }) {
    let next = 0;
    let latest: RaceSnapshot | undefined;
    return {
      // It draws nobody in the past: a fixed setting is kept, the adaptive one stands for its initial 0.1 s.
      interpolationDelay: interpolationDelay === 'adaptive' ? 0.1 : interpolationDelay,
      // One input per call: a press when asked, else a plain tick.
      advance: (_now, controls) => [{ sequence: (next += 1), press: controls.press }],
      applySnapshot: (snapshot) => {
        if (latest === undefined || snapshot.k > latest.k) latest = snapshot;
      },
      sample: (now) => ({ at: now, latest }),
    };
  },
};
