import { createStore, type StoreApi } from 'zustand/vanilla';
import type { LanPartyApi } from '../../../shared/ipc/api';
import type { AppInfo } from '../../../shared/ipc/schemas/appInfo';
import type { Settings, SettingsPatch, SettingsView } from '../../../shared/ipc/schemas/settings';
import type { BackendConnection } from '../api/backendConnection';
import { messageOf } from './actionResult';
import type { ApiRef } from './apiRef';
import { createLanSlice, EMPTY_LAN_LIST, type LanSlice } from './lanSlice';
import { createLobbySlice, IDLE_VIEW, type LobbySlice } from './lobbySlice';
import type { Screen } from './navigation';
import { createNetcheckSlice, type NetcheckSlice } from './netcheckSlice';
import { createShellSlice, subscribeShell, type ShellSlice } from './shellSlice';

/** Where the app is in reaching its backend. */
export type LoadStatus = 'loading' | 'ready' | 'error';

/** Where the last profile save is. */
export type SaveStatus = 'idle' | 'saving' | 'saved' | 'error';

/** The app's state; every field is contract data or derived from a contract call. */
export interface AppState extends LobbySlice, LanSlice, NetcheckSlice, ShellSlice {
  readonly status: LoadStatus;
  readonly loadError: string | null;
  readonly connectionLost: boolean;
  /** The one link to the backend once connected (the game stage plays through it too); null before. */
  readonly api: LanPartyApi | null;
  readonly appInfo: AppInfo | null;
  /** The settings, with a storage warning when they could not be read or saved. */
  readonly settings: SettingsView | null;
  readonly saveStatus: SaveStatus;
  readonly saveError: string | null;
  /** The screen chosen outside a room. */
  readonly screen: Screen;
  /** Connects (or reconnects) and loads app info, settings and the room. */
  start(): Promise<void>;
  /** Sends a settings update; resolves true when saved. */
  saveSettings(patch: SettingsPatch): Promise<boolean>;
  /** Saves the first-run choices and marks the player onboarded (the profile then starts clean). */
  finishFirstRun(playerName: string, playerColor: Settings['playerColor']): Promise<boolean>;
  navigate(screen: Screen): void;
  /** Drops subscriptions (on unmount). */
  stop(): void;
}

/** Creates the store; `connect` is injected so tests drive it with a fake API. */
export function createAppStore(connect: () => Promise<BackendConnection>): StoreApi<AppState> {
  const ref: ApiRef = { current: null };
  let cleanups: (() => void)[] = [];
  let generation = 0;

  const stop = (): void => {
    for (const cleanup of cleanups) cleanup();
    cleanups = [];
    ref.current = null;
  };

  return createStore<AppState>()((set, get) => {
    const lobbySlice = createLobbySlice(set, get, ref);
    return {
      status: 'loading',
      loadError: null,
      connectionLost: false,
      api: null,
      appInfo: null,
      settings: null,
      saveStatus: 'idle',
      saveError: null,
      screen: 'home',
      ...lobbySlice,
      ...createLanSlice(set, get, ref),
      ...createNetcheckSlice(set, get, ref),
      ...createShellSlice(set, get, ref),
      // An invite that came while in a room waits on the join screen once the player leaves.
      async leaveRoom() {
        const left = await lobbySlice.leaveRoom();
        if (left.ok && get().joinPrefill) set({ screen: 'join' });
        return left;
      },

      async start() {
        stop();
        const run = ++generation;
        set({ status: 'loading', loadError: null, connectionLost: false });
        try {
          const connection = await connect();
          if (run !== generation) return;
          const { api } = connection;
          ref.current = api;
          cleanups.push(api.onSettingsChanged((settings) => set({ settings })));
          cleanups.push(api.onLobbyChanged((lobby) => get().receiveLobby(lobby)));
          cleanups.push(api.onLanServers((lan) => set({ lan })));
          cleanups.push(...subscribeShell(api, get, set));
          cleanups.push(connection.onClose(() => set({ connectionLost: true })));
          // app.pending last: once it answers, main sends links and notices as events (subscribed above).
          const [appInfo, settings, lobby, update] = await Promise.all([
            api['app.getInfo'](),
            api['settings.get'](),
            api['lobby.get'](),
            api['app.updateStatus'](),
          ]);
          const pending = await api['app.pending']();
          // Handed over once: kept even if a newer start() overtook this one.
          if (pending.notice) set({ shellNotice: pending.notice });
          if (pending.deepLink) get().applyDeepLink(pending.deepLink);
          if (run !== generation) return;
          get().receiveLobby(lobby, true);
          set({ status: 'ready', api, appInfo, settings, update });
        } catch (error) {
          if (run !== generation) return;
          stop();
          set({ status: 'error', loadError: messageOf(error), api: null, lobby: IDLE_VIEW, lan: EMPTY_LAN_LIST });
        }
      },

      async saveSettings(patch) {
        const api = ref.current;
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

      async finishFirstRun(playerName, playerColor) {
        const saved = await get().saveSettings({ playerName, playerColor, onboarded: true });
        if (saved) set({ saveStatus: 'idle' });
        return saved;
      },

      navigate(screen) {
        set({ screen });
      },

      stop() {
        generation += 1;
        stop();
        set({ api: null });
      },
    };
  });
}
