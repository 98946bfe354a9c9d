import { LobbyJoinError, type LobbyEndCode } from './lobbyErrors';

/** Refusals after which trying to come back to the seat is pointless. */
const FINAL_REFUSALS: ReadonlySet<LobbyEndCode> = new Set(['seat-gone', 'kicked', 'host-closed', 'version-mismatch']);

/** Whether a failed try to come back to the seat is the room's final word (the seat is gone): no more tries. */
export function isFinalRefusal(error: unknown): error is LobbyJoinError {
  return error instanceof LobbyJoinError && FINAL_REFUSALS.has(error.code);
}

/** How a stay ends when the guest could not come back to its seat: the room's refusal, or the grace ran out. */
export function seatLostEnd(error: unknown, graceSec: number): [LobbyEndCode, string] {
  if (isFinalRefusal(error)) return [error.code, error.message];
  return ['host-gone', `Lost contact with the host for ${graceSec} s: your seat was given up.`];
}
