/** Why joining or staying in a room ended, in words a player understands. */
export type LobbyEndCode =
  | 'timeout'
  | 'unreachable'
  | 'full'
  | 'wrong-password'
  | 'version-mismatch'
  | 'in-game'
  | 'kicked'
  | 'host-closed'
  | 'host-gone'
  | 'left'
  | 'invalid-name'
  | 'too-many-tries'
  | 'invalid-room'
  | 'seat-gone';

/** A failed join, with a code the UI can branch on and a message it can show. */
export class LobbyJoinError extends Error {
  override name = 'LobbyJoinError';
  constructor(
    readonly code: LobbyEndCode,
    message: string,
    /** The raw cause (an errno, a transport reason) for the player's "Details". */
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** Player-facing text for each way a stay can end. */
export const LOBBY_END_MESSAGES: Record<LobbyEndCode, string> = {
  timeout:
    'The host did not answer. Check the address or code, that you are on the same network, and that the firewall allows LAN Party.',
  unreachable: 'Could not reach that address.',
  full: 'The room is full.',
  'wrong-password': 'Wrong password for this room.',
  'version-mismatch': 'The host runs a different LAN Party version. Update both to the same version.',
  'in-game': 'A round is in progress. Try again when it ends.',
  kicked: 'The host removed you from the room.',
  'host-closed': 'The host closed the room.',
  'host-gone': 'Lost contact with the host.',
  left: 'You left the room.',
  'invalid-name': 'The host refused your name: choose one with visible letters that is not marked as the host.',
  'too-many-tries': 'Too many tries. Wait a little, then try again.',
  'invalid-room': 'The host sent an invalid room.',
  'seat-gone': 'Your seat in the room was given up: you were away too long.',
};

/** The too-many-tries message with the wait the host asked for. */
export function tooManyTriesMessage(retryAfterSec: number): string {
  return `Too many tries, wait ${retryAfterSec} s.`;
}
