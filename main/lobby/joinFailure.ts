import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import { LOBBY_PROTOCOL_VERSION } from '../../shared/lobby/lobbyState';
import type { DiscoveryAdvert } from '../net/discovery';
import { LOBBY_END_MESSAGES, LobbyJoinError, type LobbyEndCode } from './lobbyErrors';
import { versionMismatchMessage } from './versionMismatch';

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

/**
 * A failed join as an IpcError with a player-facing message. `passwordGiven` tells "this room needs a
 * password" from "wrong password". Anything unexpected is rethrown for the gateway to log.
 */
export function describeJoinFailure(error: unknown, passwordGiven: boolean): IpcError {
  if (!(error instanceof LobbyJoinError)) throw error;
  if (error.code === 'wrong-password') {
    return new IpcError(
      IpcErrorCode.PERMISSION_DENIED,
      passwordGiven ? 'Wrong password for this room. Check it with the host.' : 'This room needs a password.',
    );
  }
  return new IpcError(JOIN_ERROR_CODES[error.code], error.message, error.detail);
}

/**
 * Whether a room's discovery reply already says the join would be refused: another lobby protocol, full, a
 * round in progress, or a password the player has not typed. Undefined when nothing stands in the way (or the
 * reply is the reference's, which says none of this). The host still decides: this only saves the wait.
 */
export function advertVerdict(
  advert: DiscoveryAdvert,
  ours: { readonly appVersion: string | undefined; readonly passwordGiven: boolean },
): LobbyJoinError | undefined {
  if (advert.lobbyProtocol !== undefined && advert.lobbyProtocol !== LOBBY_PROTOCOL_VERSION) {
    const message = versionMismatchMessage({
      hostApp: advert.appVersion,
      hostProtocol: advert.lobbyProtocol,
      ourApp: ours.appVersion,
      ourProtocol: LOBBY_PROTOCOL_VERSION,
    });
    return new LobbyJoinError('version-mismatch', message);
  }
  if (advert.capacity !== undefined && advert.playerCount >= advert.capacity) {
    return new LobbyJoinError('full', LOBBY_END_MESSAGES.full, `${advert.playerCount} of ${advert.capacity} players`);
  }
  if (advert.inRound === true) return new LobbyJoinError('in-game', LOBBY_END_MESSAGES['in-game']);
  if (advert.passwordProtected === true && !ours.passwordGiven) {
    return new LobbyJoinError('wrong-password', LOBBY_END_MESSAGES['wrong-password']);
  }
  return undefined;
}
