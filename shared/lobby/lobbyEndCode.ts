/**
 * Every way a stay in a room can end, from the host's refusals to what the guest finds out by itself: the one list
 * the lobby, the IPC schema and the screens branch on.
 */
export const LOBBY_END_CODES = [
  'timeout',
  'unreachable',
  'full',
  'wrong-password',
  'version-mismatch',
  'in-game',
  'kicked',
  'host-closed',
  'host-gone',
  'left',
  'invalid-name',
  'too-many-tries',
  'invalid-room',
  'seat-gone',
] as const;

/** One of the {@link LOBBY_END_CODES}; every refusal the host sends (a `RejectReason`) is one. */
export type LobbyEndCode = (typeof LOBBY_END_CODES)[number];
