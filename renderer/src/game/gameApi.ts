import type {
  GameCurrent,
  GameEnded,
  GameInputRequest,
  GameInputResult,
  GameResultsPayload,
  GameRosterPayload,
  GameSnapshotEvent,
  NetStats,
} from '../../../shared/ipc/schemas/game';

/**
 * The part of the renderer's API the game screen uses. The app's LanPartyApi satisfies it; tests and the render
 * benchmark pass a fake, so the game modules never depend on the whole contract.
 */
export interface GameApi {
  'game.get'(): Promise<GameCurrent>;
  'game.input'(input: GameInputRequest): Promise<GameInputResult>;
  'net.stats'(): Promise<NetStats>;
  onGameRoster(callback: (roster: GameRosterPayload) => void): () => void;
  onGameSnapshot(callback: (event: GameSnapshotEvent) => void): () => void;
  onGameResults(callback: (results: GameResultsPayload) => void): () => void;
  onGameEnded(callback: (ended: GameEnded) => void): () => void;
}
