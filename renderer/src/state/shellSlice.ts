import type { LanPartyApi } from '../../../shared/ipc/api';
import type { DeepLink, ShellNotice, UpdateStatus } from '../../../shared/ipc/schemas/shell';
import { failureOf, OK, type ActionResult } from './actionResult';
import { withApi, type ApiRef } from './apiRef';
import type { Screen } from './navigation';

/** A room code a link asked to fill into the join screen; `seq` tells two clicks of the same link apart. */
export interface JoinPrefill {
  readonly code: string;
  readonly seq: number;
}

/** What the desktop shell told the page: a link to prefill, a one-time notice, the update status. */
export interface ShellSlice {
  readonly joinPrefill: JoinPrefill | null;
  readonly shellNotice: ShellNotice | null;
  readonly update: UpdateStatus;
  /** Opens the join screen with the link's code filled in; never joins (the player clicks Join). */
  applyDeepLink(link: DeepLink): void;
  /** The join screen took the prefilled code. */
  clearJoinPrefill(): void;
  dismissShellNotice(): void;
  /** Restarts into the downloaded update. */
  installUpdate(): Promise<ActionResult>;
}

type Set = (partial: {
  joinPrefill?: JoinPrefill | null;
  shellNotice?: ShellNotice | null;
  update?: UpdateStatus;
  screen?: Screen;
}) => void;

/** Subscribes to the shell's events and fetches what it kept; returns the unsubscribes. */
export function subscribeShell(api: LanPartyApi, slice: () => ShellSlice, set: Set): (() => void)[] {
  return [
    api.onAppDeepLink((link) => slice().applyDeepLink(link)),
    api.onAppNotice((notice) => set({ shellNotice: notice })),
    api.onAppUpdate((update) => set({ update })),
    api.onAppOpenScreen(({ screen }) => set({ screen })),
  ];
}

/** The shell slice of the app store. */
export function createShellSlice(set: Set, get: () => ShellSlice, ref: ApiRef): ShellSlice {
  let seq = 0;
  return {
    joinPrefill: null,
    shellNotice: null,
    update: { state: 'disabled' },
    applyDeepLink(link) {
      seq += 1;
      set({ joinPrefill: { code: link.code, seq }, screen: 'join' });
    },
    clearJoinPrefill() {
      if (get().joinPrefill) set({ joinPrefill: null });
    },
    dismissShellNotice() {
      set({ shellNotice: null });
    },
    async installUpdate() {
      try {
        set({ update: await withApi(ref, (api) => api['app.installUpdate']()) });
        return OK;
      } catch (error) {
        return failureOf(error);
      }
    },
  };
}
