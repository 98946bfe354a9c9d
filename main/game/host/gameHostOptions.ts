import type { GameResults } from '../../../shared/game/gameProtocol';
import type { GameDefinition, GameInput } from '../../../shared/games/gameDefinition';
import type { HostTransport } from '../../net/index';
import type { HostInputCounters } from './hostInputs';
import type { Scheduler } from '../../base/scheduler';

export { MAX_ROUND_DURATION } from '../../../shared/game/gameProtocol';

/** A lobby player entering the game. */
export interface GamePlayer {
  readonly id: number;
  readonly name: string;
  readonly colour: string;
}

/** Options of {@link GameHost}; `S`, `I`, `Snap`, `E` and `W` are the game's state, input, snapshot, event, wire input. */
export interface GameHostOptions<
  S = unknown,
  I extends GameInput = GameInput,
  Snap extends object = object,
  E = unknown,
  W = unknown,
> {
  /** The game to run: the registry's definition for the room's gameId. */
  readonly game: GameDefinition<S, I, Snap, E, unknown, unknown, W>;
  /** The lobby's transport server (LobbyHost.transport). */
  readonly transport: HostTransport;
  /** The lobby's players, the host's own (id 0) included when it plays; at least the game's minPlayers. */
  readonly players: readonly GamePlayer[];
  /** Called once when the round ends (results already sent); the wiring returns to the lobby. */
  readonly onRoundEnd: (results: GameResults) => void;
  /** Session id stamped on every message, 1–65535. Default: random. */
  readonly gameId?: number;
  /** Seed of the game's random choices (tag: spawn points, who starts as "it"). Default: random. */
  readonly seed?: number;
  /** Round length in seconds, up to 600. Default the game's. */
  readonly roundDuration?: number;
  /** Seconds the room will show the results (the caller returns to the lobby then), sent with them; up to 600. */
  readonly resultsHoldSeconds?: number;
  /** The clock and timer of the fixed tick. Default real time and timers. */
  readonly scheduler?: Scheduler;
  /**
   * Ticks per snapshot, fixed (2: the old 30 a second). Default: chosen from the guests' links and re-evaluated each
   * second, 1 (60 a second) on a LAN, more on internet paths or under loss (snapshotRate.ts).
   */
  readonly snapshotEvery?: number;
  /** Resolve hits against where the shooter saw the target (games with lagPositions). Default true. */
  readonly lagCompensation?: boolean;
  /** Called after every tick that produced events (tag: tags, misses, round end), with the new state. */
  readonly onEvents?: (events: readonly E[], state: S) => void;
  /** Adjusts the initial state before the first snapshot (tests, custom modes). */
  readonly prepare?: (state: S) => S;
  /** Where exceptions thrown by callbacks go. Default console.error. */
  readonly onCallbackError?: (error: unknown) => void;
}

/** Counters of a game host. */
export interface GameHostStats {
  readonly ticks: number;
  /** Snapshots a second the room gets now. */
  readonly snapshotsPerSecond: number;
  readonly droppedTicks: number;
  readonly snapshotsSent: number;
  /** Snapshots that did not fit one datagram (not sent). */
  readonly snapshotsTooLarge: number;
  readonly inputs: HostInputCounters;
}
