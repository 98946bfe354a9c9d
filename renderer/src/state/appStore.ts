import { createStore, type StoreApi } from 'zustand/vanilla';
import type { LanPartyApi } from '../../../shared/ipc/api';
import { IpcError } from '../../../shared/ipc/errors';
import type { AppInfo } from '../../../shared/ipc/schemas/appInfo';
import type { Settings, SettingsPatch } from '../../../shared/ipc/schemas/settings';
import type { BackendConnection } from '../api/backendConnection';

/** Where the app is in reaching its backend. */
export type LoadStatus = 'loading' | 'ready' | 'error';

/** Where the last profile save is. */
export type SaveStatus = 'idle' | 'saving' | 'saved' | 'error';

/** The app's state; every field is contract data or derived from a contract call. */
export interface AppState {
  readonly status: LoadStatus;
  readonly loadError: string | null;
  readonly connectionLost: boolean;
  readonly appInfo: AppInfo | null;
  readonly settings: Settings | null;
  readonly saveStatus: SaveStatus;
  readonly saveError: string | null;
  /** Connects (or reconnects) and loads app info and settings. */
  start(): Promise<void>;
  /** Sends a settings update; resolves true when saved. */
  saveSettings(patch: SettingsPatch): Promise<boolean>;
  /** Drops subscriptions (on unmount). */
  stop(): void;
}

function messageOf(error: unknown): string {
  if (error instanceof IpcError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Creates the store; `connect` is injected so tests drive it with a fake API. */
export function createAppStore(connect: () => Promise<BackendConnection>): StoreApi<AppState> {
  let api: LanPartyApi | null = null;
  let cleanups: (() => void)[] = [];
  let generation = 0;

  const stop = (): void => {
    for (const cleanup of cleanups) cleanup();
    cleanups = [];
    api = null;
  };

  return createStore<AppState>()((set) => ({
    status: 'loading',
    loadError: null,
    connectionLost: false,
    appInfo: null,
    settings: null,
    saveStatus: 'idle',
    saveError: null,

    async start() {
      stop();
      const run = ++generation;
      set({ status: 'loading', loadError: null, connectionLost: false });
      try {
        const connection = await connect();
        if (run !== generation) return;
        api = connection.api;
        cleanups.push(connection.api.onSettingsChanged((settings) => set({ settings })));
        cleanups.push(connection.onClose(() => set({ connectionLost: true })));
        const [appInfo, settings] = await Promise.all([
          connection.api['app.getInfo'](),
          connection.api['settings.get'](),
        ]);
        if (run !== generation) return;
        set({ status: 'ready', appInfo, settings });
      } catch (error) {
        if (run !== generation) return;
        stop();
        set({ status: 'error', loadError: messageOf(error) });
      }
    },

    async saveSettings(patch) {
      if (!api) return false;
      set({ saveStatus: 'saving', saveError: null });
      try {
        const settings = await api['settings.update'](patch);
        set({ settings, saveStatus: 'saved' });
        return true;
      } catch (error) {
        set({ saveStatus: 'error', saveError: messageOf(error) });
        return false;
      }
    },

    stop() {
      generation += 1;
      stop();
    },
  }));
}
