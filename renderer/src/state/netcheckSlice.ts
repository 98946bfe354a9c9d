import type { NetcheckExport } from '../../../shared/ipc/schemas/netcheck';
import type { NetworkCheckReport } from '../../../shared/netcheck/report';
import { messageOf } from './actionResult';
import { withApi, type ApiRef } from './apiRef';

/** Where the network check is. */
export type NetcheckStatus = 'idle' | 'running' | 'done' | 'error';

/** The last network check and a way to run one. */
export interface NetcheckSlice {
  readonly netcheck: {
    readonly status: NetcheckStatus;
    readonly report: NetworkCheckReport | null;
    readonly error: string | null;
  };
  runNetcheck(): Promise<void>;
  /** The last report as text for a support request; `save` also asks main to save it (rejects on failure). */
  exportNetcheck(save: boolean): Promise<NetcheckExport>;
}

type Set = (partial: { netcheck: NetcheckSlice['netcheck'] }) => void;

/** The network check slice of the app store. */
export function createNetcheckSlice(set: Set, get: () => NetcheckSlice, ref: ApiRef): NetcheckSlice {
  return {
    netcheck: { status: 'idle', report: null, error: null },
    async runNetcheck() {
      if (get().netcheck.status === 'running') return;
      set({ netcheck: { ...get().netcheck, status: 'running', error: null } });
      try {
        const report = await withApi(ref, (api) => api['netcheck.run']());
        set({ netcheck: { status: 'done', report, error: null } });
      } catch (error) {
        set({ netcheck: { status: 'error', report: get().netcheck.report, error: messageOf(error) } });
      }
    },
    exportNetcheck(save) {
      return withApi(ref, (api) => api['netcheck.exportReport']({ save }));
    },
  };
}
