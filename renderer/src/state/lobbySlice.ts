import { IDLE_LOBBY_VIEW } from '../../../shared/ipc/schemas/lobby';
import type { LanPartyApi } from '../../../shared/ipc/api';
import type { HostAddresses, HostRoomInput, LobbyView } from '../../../shared/ipc/schemas/lobby';
import { failureOf, OK, type ActionResult } from './actionResult';
import { withApi, type ApiRef } from './apiRef';
import type { Screen } from './navigation';

/** The view when in no room (before the backend has said anything). */
export const IDLE_VIEW: LobbyView = IDLE_LOBBY_VIEW;

/** Room state and the room actions; every action resolves with how it went (never rejects). */
export interface LobbySlice {
  readonly lobby: LobbyView;
  /** Takes a room view from the backend unless it is not newer than the one held (`fresh`: a new connection's). */
  receiveLobby(view: LobbyView, fresh?: boolean): void;
  hostRoom(input: HostRoomInput): Promise<ActionResult>;
  /** Joins by a short or full code; `probe: false` connects without asking the address first ("Try anyway"). */
  joinByCode(code: string, password?: string, probe?: boolean): Promise<ActionResult>;
  /** The addresses a room can put in its code (null when the backend cannot say). */
  hostAddresses(): Promise<HostAddresses | null>;
  joinByAddress(host: string, port: number, password?: string): Promise<ActionResult>;
  /** Leaves the room (or dismisses an ended one) and goes home. */
  leaveRoom(): Promise<ActionResult>;
  /** Gives up a join still connecting, staying on the current screen. */
  cancelJoin(): Promise<ActionResult>;
  setReady(ready: boolean): Promise<ActionResult>;
  sendChat(text: string): Promise<ActionResult>;
  kick(playerId: number): Promise<ActionResult>;
  startRound(): Promise<ActionResult>;
  /** Back to the lobby from a round (its results, or a round the stage cannot show). */
  endRound(): Promise<ActionResult>;
  /** The host's "End round": the round ends now as if its time had run out, the results shown to everyone. */
  finishRound(): Promise<ActionResult>;
}

type Set = (partial: { lobby?: LobbyView; screen?: Screen }) => void;

/** The lobby slice of the app store: views come only from the backend's (ordered); a reply says only how it went. */
export function createLobbySlice(set: Set, get: () => { lobby: LobbyView }, ref: ApiRef): LobbySlice {
  const run = async (call: (api: LanPartyApi) => Promise<unknown>, after?: Screen): Promise<ActionResult> => {
    try {
      await withApi(ref, call);
      if (after) set({ screen: after });
      return OK;
    } catch (error) {
      return failureOf(error);
    }
  };
  return {
    lobby: IDLE_VIEW,
    receiveLobby(lobby, fresh = false) {
      if (fresh || lobby.revision > get().lobby.revision) set({ lobby });
    },
    hostRoom: (input) => run((api) => api['lobby.host'](input)),
    joinByCode: (code, password, probe) =>
      run((api) =>
        api['lobby.joinByCode']({
          code,
          ...(password ? { password } : {}),
          ...(probe === false ? { probe } : {}),
        }),
      ),
    hostAddresses: async () => {
      try {
        return await withApi(ref, (api) => api['lobby.addresses']());
      } catch {
        return null;
      }
    },
    joinByAddress: (host, port, password) =>
      run((api) => api['lobby.joinByAddress'](password ? { host, port, password } : { host, port })),
    leaveRoom: () => run((api) => api['lobby.leave'](), 'home'),
    cancelJoin: () => run((api) => api['lobby.leave']()),
    setReady: (ready) => run((api) => api['lobby.setReady']({ ready })),
    sendChat: (text) => run((api) => api['lobby.chat']({ text })),
    kick: (playerId) => run((api) => api['lobby.kick']({ playerId })),
    startRound: () => run((api) => api['lobby.start']()),
    endRound: () => run((api) => api['lobby.endRound']()),
    finishRound: () => run((api) => api['game.finishRound']()),
  };
}
