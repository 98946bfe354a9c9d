import type { LobbyView } from '../../../shared/ipc/schemas/lobby';

/** The launcher's screens outside a room. */
export type Screen = 'home' | 'host' | 'join' | 'browse' | 'netcheck';

/** What to show: the room while in one (or until an ended stay is dismissed), else the chosen screen. */
export function activeScreen(screen: Screen, lobby: LobbyView): Screen | 'room' {
  return lobby.status === 'in-room' || lobby.status === 'ended' ? 'room' : screen;
}
