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
