import { LOBBY_PROTOCOL_VERSION } from '../../shared/lobby/lobbyState';
import type { DiscoveryAdvert } from '../net/discovery';
import { LOBBY_END_MESSAGES, LobbyJoinError } from './lobbyErrors';
import { versionMismatchMessage } from './versionMismatch';

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
