import { RejectReason, type LobbyNotice } from '../../shared/lobby/lobbyMessages';
import { MAX_RETRY_AFTER_SEC } from '../../shared/lobby/lobbyLimits';
import type { LobbyEndCode } from '../../shared/lobby/lobbyEndCode';

export type { LobbyEndCode };

/** A failed join, with a code the UI can branch on and a message it can show. */
export class LobbyJoinError extends Error {
  override name = 'LobbyJoinError';
  constructor(
    readonly code: LobbyEndCode,
    message: string,
    /** The raw cause (an errno, a transport reason) for the player's "Details". */
    readonly detail?: string,
    /** With too-many-tries: how long the host asked the guest to wait, in milliseconds. */
    readonly retryAfterMs?: number,
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

/**
 * A join the host's transport ended before any answer: the room closed meanwhile, or the host let the connection
 * go (its hello deadline, its pre-lobby slots full under a crowd of connections). The guest cannot tell which.
 */
export const JOIN_DROPPED_MESSAGE =
  'The host ended the connection before letting you in: the room may have closed, or the host was too busy to answer in time. Try again.';

/** The too-many-tries message with the wait the host asked for. */
export function tooManyTriesMessage(retryAfterSec: number): string {
  return `Too many tries, wait ${retryAfterSec} s.`;
}

/**
 * The notice that turns a guest away for `waitMs`: whole seconds for the player's sentence (and for guests that
 * read only `retryAfterSec`), the milliseconds for a guest that waits it out by itself.
 */
export function tooManyTriesNotice(waitMs: number): LobbyNotice {
  const retryAfterSec = Math.min(MAX_RETRY_AFTER_SEC, Math.max(1, Math.ceil(waitMs / 1000)));
  const retryAfterMs = Math.min(retryAfterSec * 1000, Math.max(1, Math.ceil(waitMs)));
  const reason = RejectReason.TOO_MANY_TRIES;
  return { reason, message: tooManyTriesMessage(retryAfterSec), retryAfterSec, retryAfterMs };
}
