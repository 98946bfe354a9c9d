import type { GameResults, GameRoster } from '../../shared/game/gameProtocol';
import type { GameInput, PlayerId } from '../../shared/games/gameDefinition';

/**
 * One player's connection to a running game, the same for a guest (over the network) and the host's own player
 * (in process), so the renderer bridge treats both alike. `I` and `Snap` are the game's input and snapshot.
 */
export interface GameLink<I extends GameInput = GameInput, Snap extends object = object> {
  /** This player's game id (the lobby id as a string; the host's player is '0'). */
  readonly playerId: PlayerId;
  /**
   * Hands over the inputs the game's view just produced (each exactly once, oldest first), with the view's
   * interpolation delay in seconds (the host uses it for lag compensation).
   */
  sendInputs(inputs: readonly I[], interpolationDelay: number): void;
  /** Each validated snapshot of the current game (unreliable: some never come, some late). */
  onSnapshot(callback: (snapshot: Snap) => void): () => void;
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
export interface GameFeed<Snap extends object = object> {
  snapshot(snapshot: Snap): void;
  roster(roster: GameRoster): void;
  results(results: GameResults): void;
  /** The host stopped without results (e.g. the room closed). */
  stopped(reason: string): void;
}
