import type { LobbyPlayer, LobbyState } from '../../shared/lobby/lobbyState';

/** Guests in the room (the dedicated host's own seat is not a player). */
export function guestCount(state: LobbyState): number {
  return state.players.filter((player) => !player.host).length;
}

/**
 * Log lines for what changed between two lobby states: joins, leaves, ready flags, new chat lines and the
 * phase. Pure. Ready flags are not reported when the phase changed too, since the room resets them then.
 */
export function describeLobbyChanges(previous: LobbyState, next: LobbyState, maxPlayers: number): string[] {
  const lines: string[] = [];
  const before = new Map(previous.players.map((player) => [player.id, player]));
  const after = new Map(next.players.map((player) => [player.id, player]));
  const seats = () => `${guestCount(next)}/${maxPlayers}`;
  const guests = (players: Map<number, LobbyPlayer>) => [...players.values()].filter((player) => !player.host);

  for (const player of guests(before)) {
    if (!after.has(player.id)) lines.push(`${player.name} left (${seats()} players)`);
  }
  for (const player of guests(after)) {
    if (!before.has(player.id)) lines.push(`${player.name} joined as player ${player.id} (${seats()} players)`);
  }
  if (previous.phase === next.phase) {
    for (const player of guests(after)) {
      const was = before.get(player.id);
      if (was && was.ready !== player.ready) {
        lines.push(player.ready ? `${player.name} is ready` : `${player.name} is no longer ready`);
      }
    }
  }
  const lastChatId = previous.chat.reduce((last, line) => Math.max(last, line.id), 0);
  for (const line of next.chat) {
    if (line.id > lastChatId) lines.push(`[chat] ${line.name}: ${line.text}`);
  }
  if (previous.phase !== next.phase) {
    lines.push(next.phase === 'playing' ? 'Round started' : 'Round over: back in the lobby');
  }
  return lines;
}
