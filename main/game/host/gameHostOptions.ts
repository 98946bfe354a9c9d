import type { GameResults } from '../../../shared/game/gameProtocol';
import type { Arena, GameEvent, GameState } from '../../../shared/games/tag/types';
import type { HostTransport } from '../gameTransport';
import type { HostInputCounters } from './hostInputs';
import type { TickTimer } from './tickLoop';

/** A lobby player entering the game. */
export interface GamePlayer {
  readonly id: number;
  readonly name: string;
  readonly colour: string;
}

/** Options of {@link GameHost}. */
export interface GameHostOptions {
  /** The lobby's transport server (LobbyHost.transport). */
  readonly transport: HostTransport;
  /** The lobby's players, the host's own (id 0) included; at least two. */
  readonly players: readonly GamePlayer[];
  /** Called once when the round ends (results already sent); the wiring returns to the lobby. */
  readonly onRoundEnd: (results: GameResults) => void;
  /** Session id stamped on every message, 1–65535. Default: random. */
  readonly gameId?: number;
  /** Seed of spawn points and who starts as "it". Default: random. */
  readonly seed?: number;
  /** Round length in seconds, up to 600. Default 90. */
  readonly roundDuration?: number;
  /** Default DEFAULT_ARENA; clients must predict with the same arena. */
  readonly arena?: Arena;
  /** Monotonic clock in seconds. Default performance.now()/1000. */
  readonly clock?: () => number;
  /** Drives the fixed tick. Default real timers. */
  readonly timer?: TickTimer;
  /** Ticks per snapshot. Default SNAPSHOT_EVERY_TICKS (2). */
  readonly snapshotEvery?: number;
  /** Resolve tags against where the shooter saw the target. Default true. */
  readonly lagCompensation?: boolean;
  /** Called after every tick that produced events (tags, misses, round end), with the new state. */
  readonly onEvents?: (events: readonly GameEvent[], state: GameState) => void;
  /** Adjusts the initial state before the first snapshot (tests, custom modes). */
  readonly prepare?: (state: GameState) => GameState;
  /** Where exceptions thrown by callbacks go. Default console.error. */
  readonly onCallbackError?: (error: unknown) => void;
}

/** Counters of a game host. */
export interface GameHostStats {
  readonly ticks: number;
  readonly droppedTicks: number;
  readonly snapshotsSent: number;
  /** Snapshots that did not fit one datagram (not sent). */
  readonly snapshotsTooLarge: number;
  readonly inputs: HostInputCounters;
}

/** Longest round the host runs (seconds); it bounds scores and host times, so snapshots stay within 1200 bytes. */
export const MAX_ROUND_DURATION = 600;
