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
  endRound(): Promise<ActionResult>;
}

type Set = (partial: { lobby?: LobbyView; screen?: Screen }) => void;

/** Where the backend's room views enter the store: once each, in revision order. */
export interface LobbyViews {
  /** Takes a view (`lobby.get`, `lobby.changed`) unless the store holds one at least as new. */
  receive(view: LobbyView): void;
  /** A new backend connection: its revisions start afresh. */
  reconnect(): void;
}

/**
 * The lobby slice of the app store. The room view comes only from the backend's views (`receive`); an action's
 * reply only says whether it went through, so a view never arrives twice nor an older one over a newer.
 */
export function createLobbySlice(set: Set, ref: ApiRef): { slice: LobbySlice; views: LobbyViews } {
  let held = -1;
  const views: LobbyViews = {
    receive(lobby) {
      if (lobby.revision <= held) return;
      held = lobby.revision;
      set({ lobby });
    },
    reconnect() {
      held = -1;
    },
  };
  const run = async (call: (api: LanPartyApi) => Promise<unknown>, after?: Screen): Promise<ActionResult> => {
    try {
      await withApi(ref, call);
      if (after) set({ screen: after });
      return OK;
    } catch (error) {
      return failureOf(error);
    }
  };
  const slice: LobbySlice = {
    lobby: IDLE_VIEW,
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
  };
  return { slice, views };
}
