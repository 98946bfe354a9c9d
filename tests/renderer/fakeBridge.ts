import { IDLE_LOBBY_VIEW } from '../../shared/ipc/schemas/lobby';
import { vi } from 'vitest';
import type { LanPartyBridge } from '../../shared/ipc/api';
import type { IpcResult } from '../../shared/ipc/result';
import type { LobbyView } from '../../shared/ipc/schemas/lobby';
import type { Settings } from '../../shared/ipc/schemas/settings';

/** The view when in no room (before the backend has said anything). */
export const IDLE_VIEW: LobbyView = IDLE_LOBBY_VIEW;

/** An empty LAN list answer, searching or not. */
function emptyLan(running: boolean) {
  return {
    ok: true,
    value: { running, servers: [], error: null, ports: { discovery: 9998, game: 9000 }, added: [], staleAfterMs: 3500 },
  } as const;
}

function listenerSet() {
  const listeners = new Set<(payload: unknown) => void>();
  return {
    listeners,
    subscribe: vi.fn((callback: (payload: unknown) => void) => {
      listeners.add(callback);
      return () => listeners.delete(callback);
    }),
    push: (payload: unknown) => listeners.forEach((l) => l(payload)),
  };
}

/** A bridge that serves settings and an idle room from memory, with ways to push each event. */
export function fakeBridge(
  initial: Settings = {
    playerName: 'ada',
    playerColor: '#3ddc97',
    onboarded: true,
    notifications: true,
    theme: 'system',
  },
) {
  let settings = initial;
  const settingsEvents = listenerSet();
  const lobbyEvents = listenerSet();
  const lanEvents = listenerSet();
  const shellEvents = {
    deepLink: listenerSet(),
    notice: listenerSet(),
    update: listenerSet(),
    openScreen: listenerSet(),
  };
  const idle = async (): Promise<IpcResult<LobbyView>> => ({ ok: true, value: IDLE_VIEW });
  // A room command answers nothing (the view comes as lobby.changed).
  const done = async (): Promise<IpcResult<void>> => ({ ok: true, value: undefined });
  const bridge = {
    'app.getInfo': vi.fn(async () => ({
      ok: true,
      value: { name: 'LAN Party', version: '1.0.0', platform: 'linux', transport: 'websocket', portMapping: false },
    })),
    'settings.get': vi.fn(async () => ({ ok: true, value: settings })),
    'settings.update': vi.fn(async (patch?: Partial<Settings>): Promise<IpcResult<Settings>> => {
      if (patch?.playerName === '')
        return { ok: false, error: { code: 'invalid-argument', message: 'Name cannot be empty' } };
      settings = { ...settings, ...patch };
      return { ok: true, value: settings };
    }),
    'lobby.get': vi.fn(idle),
    'lobby.host': vi.fn(done),
    'lobby.joinByCode': vi.fn(done),
    'lobby.joinByAddress': vi.fn(done),
    'lobby.leave': vi.fn(done),
    'lobby.setReady': vi.fn(done),
    'lobby.chat': vi.fn(done),
    'lobby.kick': vi.fn(done),
    'lobby.start': vi.fn(done),
    'lobby.endRound': vi.fn(done),
    'game.finishRound': vi.fn(done),
    'lan.start': vi.fn(async () => emptyLan(true)),
    'lan.stop': vi.fn(async () => emptyLan(false)),
    'lan.refresh': vi.fn(async () => emptyLan(true)),
    'netcheck.run': vi.fn(async () => ({ ok: false, error: { code: 'internal', message: 'not faked' } })),
    'app.pending': vi.fn(async () => ({ ok: true, value: { deepLink: null, notice: null } })),
    'app.updateStatus': vi.fn(async () => ({ ok: true, value: { state: 'disabled' } })),
    'app.installUpdate': vi.fn(async () => ({
      ok: false,
      error: { code: 'failed-precondition', message: 'No update is ready to install yet.' },
    })),
    onSettingsChanged: settingsEvents.subscribe,
    onLobbyChanged: lobbyEvents.subscribe,
    onLanServers: lanEvents.subscribe,
    onAppDeepLink: shellEvents.deepLink.subscribe,
    onAppNotice: shellEvents.notice.subscribe,
    onAppUpdate: shellEvents.update.subscribe,
    onAppOpenScreen: shellEvents.openScreen.subscribe,
  };
  return {
    bridge: bridge as unknown as LanPartyBridge,
    raw: bridge,
    push: settingsEvents.push,
    pushLobby: lobbyEvents.push,
    pushLan: lanEvents.push,
    /** Pushes one of the shell's events: deepLink, notice, update or openScreen. */
    pushShell: (event: keyof typeof shellEvents, payload: unknown) => shellEvents[event].push(payload),
    shellListenerCount: () => Object.values(shellEvents).reduce((n, e) => n + e.listeners.size, 0),
    listenerCount: () => settingsEvents.listeners.size,
    allListenerCount: () => settingsEvents.listeners.size + lobbyEvents.listeners.size + lanEvents.listeners.size,
  };
}
