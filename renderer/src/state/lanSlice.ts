import type { LanList } from '../../../shared/ipc/schemas/lan';
import { LAN_PARTY_PORTS } from '../../../shared/netcheck/ports';
import { failureOf, messageOf, OK, type ActionResult } from './actionResult';
import { withApi, type ApiRef } from './apiRef';

/** The list before the first search. */
export const EMPTY_LAN_LIST: LanList = {
  running: false,
  servers: [],
  error: null,
  // Until the backend answers: the standard ports (the list's first reply says which are really in use).
  ports: { discovery: LAN_PARTY_PORTS.DISCOVERY, game: LAN_PARTY_PORTS.GAME },
  added: [],
  // Until the backend answers: its value for the standard 2 s search interval.
  staleAfterMs: 3500,
};

/** The live LAN list and its controls. */
export interface LanSlice {
  readonly lan: LanList;
  /** A search round is being sent (start or refresh in flight). */
  readonly lanBusy: boolean;
  startLanSearch(): Promise<void>;
  stopLanSearch(): Promise<void>;
  refreshLan(): Promise<void>;
  /** Adds a server to ask by address on every round (host as typed, its discovery port). */
  addLanServer(host: string, port: number): Promise<ActionResult>;
  /** Forgets a server added by address. */
  removeLanServer(host: string, port: number): Promise<ActionResult>;
}

type Set = (partial: { lan?: LanList; lanBusy?: boolean }) => void;

/** The LAN slice of the app store; failures show up as the list's error. */
export function createLanSlice(set: Set, get: () => LanSlice, ref: ApiRef): LanSlice {
  const run = async (call: 'lan.start' | 'lan.stop' | 'lan.refresh'): Promise<void> => {
    set({ lanBusy: call !== 'lan.stop' });
    try {
      set({ lan: await withApi(ref, (api) => api[call]()), lanBusy: false });
    } catch (error) {
      set({ lan: { ...get().lan, error: messageOf(error) }, lanBusy: false });
    }
  };
  // Unlike a search round, a failed edit belongs to the form that asked, not to the list's banner.
  const edit = async (
    call: 'lan.addServer' | 'lan.removeServer',
    host: string,
    port: number,
  ): Promise<ActionResult> => {
    try {
      set({ lan: await withApi(ref, (api) => api[call]({ host, port })) });
      return OK;
    } catch (error) {
      return failureOf(error);
    }
  };
  return {
    lan: EMPTY_LAN_LIST,
    lanBusy: false,
    startLanSearch: () => run('lan.start'),
    stopLanSearch: () => run('lan.stop'),
    refreshLan: () => run('lan.refresh'),
    addLanServer: (host, port) => edit('lan.addServer', host, port),
    removeLanServer: (host, port) => edit('lan.removeServer', host, port),
  };
}
