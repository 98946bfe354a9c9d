import type { LobbyHost } from '../lobby/lobbyHost';

/**
 * What the dedicated host does once every player is ready: start the round. The game service will replace
 * this with a function that also runs the game on `host.transport` and calls `host.endGame()` when the round
 * ends; until then a round lasts until everyone has left.
 */
export function onAllReady(host: LobbyHost): void {
  host.startGame();
}
