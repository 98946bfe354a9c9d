import type { GameResults } from '../../shared/game/gameProtocol';
import type {
  ConditionerSummary,
  GameCurrent,
  GameInputRequest,
  GameInputResult,
  NetStats,
} from '../../shared/ipc/schemas/game';
import type { IpcContract } from '../../shared/ipc/contract';
import type { EventPayload } from '../../shared/ipc/contractTypes';
import type { GameRegistry } from '../../shared/games/gameRegistry';
import type { LobbyState } from '../../shared/lobby/lobbyState';
import type { GameHost } from './host/gameHost';
import type { GuestTransport, HostTransport } from '../net/index';
import type { Logger } from '../base/logger';
import type { Scheduler } from '../base/scheduler';

/** The game events this service pushes to the renderer, with their contract payloads. */
export type GameEvents = {
  [K in 'game.roster' | 'game.snapshot' | 'game.results' | 'game.ended']: EventPayload<IpcContract, K>;
};

/** Pushes one game event (the gateway's emit). */
export type GameEmit = <K extends keyof GameEvents>(name: K, payload: GameEvents[K]) => void;

/** A hosted room as the game needs it; LobbyHost satisfies it. */
export interface GameRoom {
  readonly transport: HostTransport;
  /** The transport by seat, when the room holds the seats of guests that lost their link; the game uses it. */
  readonly gameTransport?: HostTransport;
  readonly state: LobbyState;
  endGame(): void;
  onState(listener: (state: LobbyState) => void): () => void;
}

/** A seat in someone else's room as the game needs it; LobbyGuest satisfies it. */
export interface GameSeat {
  readonly you: number;
  readonly state: LobbyState;
  readonly transport: GuestTransport;
  onState(listener: (state: LobbyState) => void): () => void;
  /** Called once when the stay ends (host closed the room, kicked, host gone). */
  onEnd(listener: (end: { readonly message: string }) => void): () => void;
}

/** The lobby service's room object (LobbyService.session()). */
export type GameSession =
  { readonly role: 'host'; readonly host: GameRoom } | { readonly role: 'guest'; readonly guest: GameSeat };

/** Options of {@link createGameService}. */
export interface GameServiceOptions {
  readonly emit: GameEmit;
  /** The games a room may play, by id. Default the app's registry (shared/games/registry.ts). */
  readonly games?: GameRegistry;
  /** Round length in seconds (tests and the e2e run use a short one). Default the game's (tag: 90 s). */
  readonly roundDuration?: number;
  /** Seconds the winner screen shows before the host returns the room to the lobby. Default 5. */
  readonly resultsHoldSeconds?: number;
  /**
   * Snapshots a second of every game this machine hosts, fixed: a divisor of 60 (30 is the old rate, kept for
   * comparison benches). Default: the host chooses per room from its guests' links (60 on a LAN).
   */
  readonly snapshotsPerSecond?: number;
  /** The link conditioner's settings when one is in front of this machine's room connection. */
  readonly conditioner?: () => ConditionerSummary;
  readonly logger?: Logger;
  /** The clock and timers of the games it runs and of the results hold. Default real time and timers. */
  readonly scheduler?: Scheduler;
}

/** How a backend's games are tuned: what tests shorten or lengthen, and the games they may play. */
export type GameTuning = Pick<
  GameServiceOptions,
  'games' | 'roundDuration' | 'resultsHoldSeconds' | 'snapshotsPerSecond'
>;

/** The game requests this service answers (Pick<HandlersOf<IpcContract>, …> compatible). */
export interface GameHandlers {
  'game.get': () => GameCurrent;
  'game.input': (input: GameInputRequest) => GameInputResult;
  /** The host's "End round"; a guest, or a call with no round running, fails with a clear IpcError. */
  'game.finishRound': () => void;
  'net.stats': () => NetStats;
}

/** What {@link createGameService} returns. */
export interface GameService {
  readonly handlers: GameHandlers;
  /** Starts the room's game, authoritative, in the host's room (after LobbyHost.startGame()); returns the host. */
  startAsHost(room: GameRoom, options?: { onRoundEnd?: (results: GameResults) => void }): GameHost;
  /** Attaches to a joined room at once, so no roster or snapshot of a later game is missed. */
  attachGuest(seat: GameSeat): void;
  /** Follows the lobby service: starts games in our room, attaches to rooms we join, stops when we leave. */
  bindLobby(lobby: {
    session(): GameSession | null;
    onSession(listener: (s: GameSession | null) => void): () => void;
  }): () => void;
  /** Ends any game and lets go of the room. */
  stop(reason?: string): void;
}
