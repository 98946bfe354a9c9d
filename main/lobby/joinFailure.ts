import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import { RoomCodeError } from '../../shared/roomCode';
import { LobbyJoinError, type LobbyEndCode } from './lobbyErrors';

/** The IpcError code the renderer branches on for each way a join can fail. */
export const JOIN_ERROR_CODES: Readonly<Record<LobbyEndCode, IpcErrorCode>> = {
  timeout: IpcErrorCode.UNAVAILABLE,
  unreachable: IpcErrorCode.UNAVAILABLE,
  'host-gone': IpcErrorCode.UNAVAILABLE,
  'host-closed': IpcErrorCode.UNAVAILABLE,
  // Only a wrong (or missing) password is permission-denied, so the join screen knows to ask for one.
  'wrong-password': IpcErrorCode.PERMISSION_DENIED,
  full: IpcErrorCode.FAILED_PRECONDITION,
  'version-mismatch': IpcErrorCode.FAILED_PRECONDITION,
  'in-game': IpcErrorCode.FAILED_PRECONDITION,
  kicked: IpcErrorCode.FAILED_PRECONDITION,
  left: IpcErrorCode.FAILED_PRECONDITION,
  'invalid-name': IpcErrorCode.FAILED_PRECONDITION,
  'too-many-tries': IpcErrorCode.FAILED_PRECONDITION,
  'invalid-room': IpcErrorCode.FAILED_PRECONDITION,
  'seat-gone': IpcErrorCode.FAILED_PRECONDITION,
};

function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** A room code the player typed could not be decoded: the decoder's precise message, as a sentence. */
export function roomCodeFailure(error: RoomCodeError): IpcError {
  return new IpcError(IpcErrorCode.INVALID_ARGUMENT, sentence(error.message));
}

/**
 * A failed join as an IpcError with a player-facing message. `passwordGiven` tells "this room needs a
 * password" from "wrong password". Anything unexpected is rethrown for the gateway to log.
 */
export function describeJoinFailure(error: unknown, passwordGiven: boolean): IpcError {
  if (error instanceof RoomCodeError) return roomCodeFailure(error);
  if (!(error instanceof LobbyJoinError)) throw error;
  if (error.code === 'wrong-password') {
    return new IpcError(
      IpcErrorCode.PERMISSION_DENIED,
      passwordGiven ? 'Wrong password for this room. Check it with the host.' : 'This room needs a password.',
    );
  }
  return new IpcError(JOIN_ERROR_CODES[error.code], error.message, error.detail);
}
