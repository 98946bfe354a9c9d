import type { IpcContract } from '../../shared/ipc/contract';
import type { HandlersIn } from '../ipc/handlerTypes';
import type { LobbyService } from './lobbyService';

/** The gateway handlers for the room requests; commands answer nothing (their view comes as `lobby.changed`). */
export function lobbyHandlers(lobby: LobbyService): HandlersIn<IpcContract, 'lobby'> {
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
