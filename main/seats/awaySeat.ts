import type { LobbyState } from '../../shared/lobby/lobbyState';

/**
 * The room with player `you` shown away until `awayUntil` (wall-clock ms): a guest whose link went silent is
 * "reconnecting…" on its own screen too, for as long as the host holds its seat.
 */
export function markedAway(state: LobbyState, you: number, awayUntil: number): LobbyState {
  return { ...state, players: state.players.map((p) => (p.id === you ? { ...p, awayUntil } : p)) };
}
