import type { GameResults } from '../../shared/game/gameProtocol';
import { GAMES } from '../../shared/games/registry';
import { RESULTS_HOLD_SECONDS } from '../../shared/ipc/schemas/game';
import { GameHost } from '../game/host/gameHost';
import type { LobbyHost } from '../lobby/host/lobbyHost';

/** How long the winner screen stays up before the room returns to the lobby, as in the app. */
export const RESULTS_HOLD_MS = RESULTS_HOLD_SECONDS * 1000;

/** Options of {@link onAllReady}; tests shorten the round and the hold. */
export interface RoundOptions {
  roundDuration?: number;
  resultsHoldMs?: number;
  onResults?: (results: GameResults) => void;
}

/**
 * What the dedicated host does once every player is ready: start the round and run the same authoritative
 * game host the app runs, on the room's transport, back to the lobby after the results. The dedicated seat
 * does not play, so a round needs two guests.
 */
export function onAllReady(host: LobbyHost, options: RoundOptions = {}): void {
  const players = host.state.players.filter((p) => !p.host);
  if (players.length < 2) throw new Error('a round needs at least two players (the dedicated host does not play)');
  host.startGame();
  const holdMs = options.resultsHoldMs ?? RESULTS_HOLD_MS;
  const game = new GameHost({
    game: GAMES.get(host.state.gameId),
    transport: host.gameTransport,
    players,
    ...(options.roundDuration !== undefined ? { roundDuration: options.roundDuration } : {}),
    // Sent with the results: the players' winner screens count down this room's hold.
    resultsHoldSeconds: holdMs / 1000,
    onRoundEnd: (results) => {
      options.onResults?.(results);
      setTimeout(() => host.endGame(), holdMs).unref();
    },
  });
  game.start();
}
