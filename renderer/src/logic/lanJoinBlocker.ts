import type { LanServer } from '../../../shared/ipc/schemas/lan';

/** Why a listed server cannot be joined, or null when it can. Pure. */
export function joinBlocker(server: LanServer): string | null {
  if (server.own) return 'This is your room';
  if (server.compatibility === 'incompatible') return 'Runs a different LAN Party version';
  if (server.compatibility === 'unknown') return 'Not a LAN Party room';
  if (server.capacity !== null && server.playerCount >= server.capacity) return 'Room is full';
  if (server.state === 'playing') return 'Round in progress: join when it ends';
  return null;
}

/** What a listed room is doing, as the State column shows it. */
export type LanRoomStatus =
  | { readonly kind: 'lobby'; readonly label: 'In lobby' }
  | { readonly kind: 'playing'; readonly label: 'Round in progress' }
  | { readonly kind: 'full'; readonly label: 'Full' }
  | { readonly kind: 'other'; readonly label: 'Different version' | 'gale.net server' | 'Open' };

/** The State column of a room: full wins over playing (neither lets you in, but full says it for longer). Pure. */
export function lanRoomStatus(server: LanServer): LanRoomStatus {
  if (server.compatibility === 'incompatible') return { kind: 'other', label: 'Different version' };
  if (server.compatibility === 'unknown') return { kind: 'other', label: 'gale.net server' };
  if (server.capacity !== null && server.playerCount >= server.capacity) return { kind: 'full', label: 'Full' };
  if (server.state === 'playing') return { kind: 'playing', label: 'Round in progress' };
  if (server.state === 'lobby') return { kind: 'lobby', label: 'In lobby' };
  return { kind: 'other', label: 'Open' };
}
