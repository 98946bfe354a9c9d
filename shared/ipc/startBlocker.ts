import type { LobbyState } from '../lobby/lobbyState';
import { canStart } from '../lobby/lobbyReducer';

function nameList(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  if (names.length <= 3) return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `${names.slice(0, 2).join(', ')} and ${names.length - 2} others`;
}

/**
 * Why the host cannot start the round yet, in words for the Start button; null when it can. Shared so the
 * room screen and main's `lobby.start` give the same reason (and agree with the lobby's canStart).
 */
export function startBlocker(state: LobbyState): string | null {
  if (state.phase === 'playing') return 'A round is already in progress.';
  if (state.players.length < 2) return 'Waiting for at least one more player to join.';
  const waiting = state.players.filter((p) => !p.host && !p.ready).map((p) => p.name);
  if (waiting.length > 0) {
    return `Waiting for ${nameList(waiting)} to get ready.`;
  }
  return canStart(state) ? null : 'The room is not ready to start.';
}
