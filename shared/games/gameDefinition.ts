/**
 * The seam between the generic game machinery (host loop, game protocol, renderer stage) and one game's rules.
 * Members are written as methods on purpose: TypeScript checks method parameters bivariantly, so a game typed with
 * its own state, input and snapshot still fits the registry's `GameDefinition` (all parameters unknown). The types
 * the game protocol needs as well live one floor down, in shared/game/gameTypes.ts.
 */
import type {
  GameInput,
  GameInputCodec,
  GameSnapshotCodec,
  GameWire,
  PlayerId,
  Point,
  PositionLookup,
} from '../game/gameTypes';

export type {
  GameInput,
  GameInputCodec,
  GameSnapshotCodec,
  GameWire,
  BinaryGameWire,
  PlayerId,
  Point,
  PositionLookup,
} from '../game/gameTypes';
export { JSON_GAME_WIRE } from '../game/gameTypes';
import type { InterpolationDelaySetting } from '../game/adaptiveInterpolationDelay';
import type { GameControls } from './gameControls';
import type { GameResultsWording } from './gameResultsWording';

/** `waiting`: too few players. `playing`: the round runs. `ended`: the round is over, standings are final. */
export type GamePhase = 'waiting' | 'playing' | 'ended';

/** A lobby player entering a game. */
export interface GamePlayer {
  readonly id: PlayerId;
  readonly name: string;
  /** CSS colour, `#rrggbb`. */
  readonly colour: string;
}

/** What {@link GameDefinition.create} starts from. */
export interface GameSetup {
  /** In join order, the host's player (id '0') first when it plays. */
  readonly players: readonly GamePlayer[];
  /** Seed of every random choice: the same seed and inputs give the same game. */
  readonly seed: number;
  /** Round length in seconds, already checked by the host (0 < d ≤ 600). */
  readonly roundDuration: number;
}

/** What the host loop hands a step besides state, inputs and dt. */
export interface StepContext {
  /** Rewound positions, when the game records them ({@link GameDefinition.lagPositions}) and the host has it on. */
  readonly rewound: PositionLookup | undefined;
}

/** What one step produced. */
export interface StepOutcome<S, E> {
  readonly state: S;
  /** What happened (for sounds, toasts, logs); the host passes them on untouched. */
  readonly events: readonly E[];
}

/** One player's line of the final standings. */
export interface GameScore {
  readonly id: PlayerId;
  /** The ranking number (tag: seconds not "it"); sent with one decimal. */
  readonly score: number;
  /** A whole, non-negative count shown beside it and breaking ties (tag: tags made). */
  readonly stat: number;
}

/** Who leads and everyone's score, in join order. */
export interface GameStandings {
  readonly winners: readonly PlayerId[];
  readonly scores: readonly GameScore[];
}

/** What {@link GameDefinition.createView} gets. */
export interface GameViewOptions {
  /** The local player's id. */
  readonly playerId: PlayerId;
  /**
   * How far in the past other players are drawn: 'adaptive' follows how old the newest snapshot is at the
   * frames drawn (AdaptiveInterpolationDelay), a number fixes it in seconds.
   */
  readonly interpolationDelay: InterpolationDelaySetting;
}

/** A client's picture of a running game, pure and with time (seconds) injected: prediction plus interpolation. */
export interface GameView<I extends GameInput = GameInput, Snap = unknown, C = unknown, F = unknown> {
  /** How far in the past other players are drawn now, seconds (reported to the host for lag compensation). */
  readonly interpolationDelay: number;
  /** Runs the local ticks due by `now` under `controls`; returns their inputs, oldest first, to send. */
  advance(now: number, controls: C): I[];
  /** Takes an authoritative snapshot received at `now`. */
  applySnapshot(snapshot: Snap, now: number): void;
  /** What to draw at `now`. */
  sample(now: number): F;
}

/**
 * One game: its name and player limits, its pure rules (create, step, players leaving, standings), how its inputs
 * and snapshots travel, and the client view the renderer draws from. Registered by `id` in shared/games/registry.ts.
 * `S` state, `I` input, `Snap` snapshot, `E` event, `C` controls, `F` view frame, `W` wire input.
 */
export interface GameDefinition<
  S = unknown,
  I extends GameInput = GameInput,
  Snap extends object = object,
  E = unknown,
  C = unknown,
  F = unknown,
  W = unknown,
> {
  /** Registry key, carried in the lobby state: lower case, e.g. 'tag'. */
  readonly id: string;
  /** Display name, e.g. 'Tag'. */
  readonly name: string;
  /** One sentence for the host's game picker. */
  readonly description: string;
  /** Fewest players a round needs (at least 1). */
  readonly minPlayers: number;
  /** Most players a round takes (at most MAX_GAME_PLAYERS). */
  readonly maxPlayers: number;
  /** Default round length in seconds. */
  readonly roundDuration: number;
  /** The initial state; the phase is 'playing' when there are enough players. Throws on bad setup. */
  create(setup: GameSetup): S;
  /** Advances by `dt` seconds under this tick's inputs (one per player; the map is reused, do not keep it). Pure. */
  step(state: S, inputs: ReadonlyMap<PlayerId, I>, dt: number, context: StepContext): StepOutcome<S, E>;
  /** The state without that player (unknown ids ignored); too few left makes the phase leave 'playing'. */
  removePlayer(state: S, id: PlayerId): S;
  /** The players, in join order (same objects each call is fine: the host iterates it every tick). */
  players(state: S): readonly GamePlayer[];
  phase(state: S): GamePhase;
  /**
   * The round over now, as if its time had run out (the host's "End round"): phase 'ended', the standings as they
   * stand at this moment. A state that is not playing comes back unchanged. Pure.
   */
  endRound(state: S): S;
  standings(state: S): GameStandings;
  readonly input: GameInputCodec<I, W>;
  readonly snapshot: GameSnapshotCodec<S, Snap>;
  /**
   * How `input`'s wire form and `snapshot` travel between two LAN Party apps: binary formats (shared/codec field
   * lists; the room codec in main/net/codec is built from every registered game's), or JSON_GAME_WIRE, said on purpose.
   */
  readonly wire: GameWire;
  /** Positions the host records each tick for lag-compensated hits; leave out for a game without them. */
  lagPositions?(state: S): Iterable<{ readonly id: PlayerId } & Point>;
  /** Its buttons (keys and touch pad) and what they mean to its client view. */
  readonly controls: GameControls<C>;
  /** How the winner screen words its standings. */
  readonly results: GameResultsWording;
  /** A client view for one local player. */
  createView(options: GameViewOptions): GameView<I, Snap, C, F>;
}
