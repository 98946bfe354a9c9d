import type { GameResults, GameRoster } from '../../shared/game/gameProtocol';
import type { GameSnapshot } from '../../shared/games/tag/snapshot';
import type { PlayerId, PlayerInput } from '../../shared/games/tag/types';

/**
 * One player's connection to a running game, the same for a guest (over the network) and the host's own player
 * (in process), so the renderer bridge treats both alike.
 */
export interface GameLink {
  /** This player's game id (the lobby id as a string; the host's player is '0'). */
  readonly playerId: PlayerId;
  /**
   * Hands over the inputs ClientView.advance() just produced (each exactly once, oldest first), with the view's
   * interpolation delay in seconds (the host uses it for lag compensation).
   */
  sendInputs(inputs: readonly PlayerInput[], interpolationDelay: number): void;
  /** Each validated snapshot of the current game (unreliable: some never come, some late). */
  onSnapshot(callback: (snapshot: GameSnapshot) => void): () => void;
  /** The player list, at the start and after anyone leaves. */
  onRoster(callback: (roster: GameRoster) => void): () => void;
  /** The round is over; the lobby comes back next. */
  onResults(callback: (results: GameResults) => void): () => void;
  /** The link stopped for another reason than close() (host gone, game stopped). */
  onClosed(callback: (reason: string) => void): () => void;
  /** Stops listening; the transport itself belongs to the lobby and stays open. */
  close(): void;
}

/** What the game host pushes to an in-process player (see GameHost.attachLocal). */
export interface GameFeed {
  snapshot(snapshot: GameSnapshot): void;
  roster(roster: GameRoster): void;
  results(results: GameResults): void;
  /** The host stopped without results (e.g. the room closed). */
  stopped(reason: string): void;
}
