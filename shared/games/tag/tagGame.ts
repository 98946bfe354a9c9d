import type { GameDefinition } from '../gameDefinition';
import { tagControls } from './client/tagControls';
import { ClientView, type ClientControls, type ViewFrame } from './client/clientView';
import { createGame } from './createGame';
import { removePlayer } from './players';
import { endRoundNow } from './round';
import { DEFAULT_ARENA, RULES } from './rules';
import { parseSnapshot, toSnapshot, type GameSnapshot } from './wire/snapshot';
import { stepWithEvents } from './step';
import { tagInputCodec, type InputTuple } from './wire/tagInput';
import type { Arena, GameEvent, GameState, PlayerInput } from './types';
import { tagWire } from './wire/tagWire';

/** The tag game's definition, with its own types filled in, and the arena it plays (the renderer draws it). */
export interface TagGameDefinition extends GameDefinition<
  GameState,
  PlayerInput,
  GameSnapshot,
  GameEvent,
  ClientControls,
  ViewFrame,
  InputTuple
> {
  readonly arena: Arena;
}

/** Options of {@link createTagGame}. */
export interface TagGameOptions {
  /** Playing field of host and clients alike (prediction needs the host's). Default DEFAULT_ARENA. */
  readonly arena?: Arena;
  /** Seconds of the frozen 3-2-1 before each round. Default RULES.roundCountdown. */
  readonly countdown?: number;
}

/** Tag as a game definition: the registered one plays DEFAULT_ARENA; tests make one on an open arena. */
export function createTagGame(options: TagGameOptions = {}): TagGameDefinition {
  const arena = options.arena ?? DEFAULT_ARENA;
  return {
    id: 'tag',
    name: 'Tag',
    description: 'Whoever is “it” chases the others. Your score is the time you spend not being it.',
    minPlayers: RULES.minPlayers,
    maxPlayers: RULES.maxPlayers,
    roundDuration: RULES.roundDuration,
    arena,
    create: ({ players, seed, roundDuration }) =>
      createGame({ players, seed, roundDuration, arena, countdown: options.countdown }),
    step: (state, inputs, dt, context) => stepWithEvents(state, inputs, dt, { targetPositionAt: context.rewound }),
    removePlayer,
    players: (state) => state.players,
    phase: (state) => state.phase,
    endRound: endRoundNow,
    standings: (state) => ({
      winners: state.winnerIds,
      scores: state.players.map((p) => ({ id: p.id, score: p.score, stat: p.tags })),
    }),
    input: tagInputCodec,
    snapshot: { of: toSnapshot, parse: parseSnapshot },
    wire: tagWire,
    lagPositions: (state) => state.players,
    controls: tagControls,
    results: {
      scoreMeasure: 'time not it',
      formatScore: (score) => `${score.toFixed(1)} s`,
      formatStat: (stat) => `${stat} tag${stat === 1 ? '' : 's'}`,
    },
    createView: ({ playerId, interpolationDelay }) => new ClientView({ playerId, interpolationDelay, arena }),
  };
}

/** The tag game on the standard arena, as registered. */
export const tagGame: TagGameDefinition = createTagGame();
