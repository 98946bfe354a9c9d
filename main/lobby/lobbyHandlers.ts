import type { IpcContract } from '../../shared/ipc/contract';
import type { HandlersOf } from '../ipc/handlerTypes';
import type { LobbyService } from './lobbyService';

/** The lobby requests this module answers. */
export type LobbyRequestName =
  | 'lobby.get'
  | 'lobby.host'
  | 'lobby.joinByCode'
  | 'lobby.addresses'
  | 'lobby.joinByAddress'
  | 'lobby.leave'
  | 'lobby.setReady'
  | 'lobby.chat'
  | 'lobby.kick'
  | 'lobby.start'
  | 'lobby.endRound';

/** The gateway handlers for the room requests; every one answers with the new view. */
export function lobbyHandlers(lobby: LobbyService): Pick<HandlersOf<IpcContract>, LobbyRequestName> {
  return {
    'lobby.get': () => lobby.view(),
    'lobby.host': (input) => lobby.host(input),
    'lobby.joinByCode': (input) => lobby.joinByCode(input),
    'lobby.addresses': () => lobby.addresses(),
    'lobby.joinByAddress': (input) => lobby.joinByAddress(input),
    'lobby.leave': () => lobby.leave(),
    'lobby.setReady': ({ ready }) => lobby.setReady(ready),
    'lobby.chat': ({ text }) => lobby.chat(text),
    'lobby.kick': ({ playerId }) => lobby.kick(playerId),
    'lobby.start': () => lobby.start(),
    'lobby.endRound': () => lobby.endRound(),
  };
}
