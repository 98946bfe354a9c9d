import { GAMES } from '../games/registry';
import { MAX_CHAT_LINES, type LobbyEvent, type LobbyState } from './lobbyState';

/** Applies one event; pure, so host and guests reach the same state from the same events. */
export function applyLobbyEvent(state: LobbyState, event: LobbyEvent): LobbyState {
  const next = { ...state, revision: state.revision + 1 };
  switch (event.kind) {
    case 'joined':
      // A player already in the room (away, then back) keeps its place.
      return state.players.some((p) => p.id === event.player.id)
        ? { ...next, players: state.players.map((p) => (p.id === event.player.id ? event.player : p)) }
        : { ...next, players: [...state.players, event.player] };
    case 'left':
      return { ...next, players: state.players.filter((p) => p.id !== event.playerId) };
    case 'ready':
      return {
        ...next,
        players: state.players.map((p) => (p.id === event.playerId ? { ...p, ready: event.ready } : p)),
      };
    case 'chat':
      return { ...next, chat: [...state.chat, event.line].slice(-MAX_CHAT_LINES) };
    case 'pings': {
      const pings = new Map(event.pings);
      return {
        ...next,
        players: state.players.map((p) => (pings.has(p.id) ? { ...p, pingMs: pings.get(p.id) ?? null } : p)),
      };
    }
    case 'phase':
      // Back in the lobby after a round, everyone readies up again.
      return {
        ...next,
        phase: event.phase,
        players: event.phase === 'lobby' ? state.players.map((p) => ({ ...p, ready: false })) : state.players,
      };
  }
}

/** Players a room needs before the host may start: its game's minimum, and never fewer than two (host and guest). */
export function playersNeeded(state: LobbyState): number {
  return Math.max(2, GAMES.find(state.gameId)?.minPlayers ?? 2);
}

/** Whether the host may start: a known game, enough players for it and every guest ready. */
export function canStart(state: LobbyState): boolean {
  return (
    state.phase === 'lobby' &&
    GAMES.has(state.gameId) &&
    state.players.length >= playersNeeded(state) &&
    state.players.every((p) => p.host || p.ready)
  );
}
