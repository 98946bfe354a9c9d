import { vi } from 'vitest';
import type { LanPartyBridge } from '../../shared/ipc/api';
import type { IpcResult } from '../../shared/ipc/result';
import type { Settings } from '../../shared/ipc/schemas/settings';

/** A bridge that serves settings from memory, with a way to push settings.changed. */
export function fakeBridge(initial: Settings = { playerName: 'ada', playerColor: '#3ddc97' }) {
  let settings = initial;
  const listeners = new Set<(payload: unknown) => void>();
  const bridge = {
    'app.getInfo': vi.fn(async () => ({
      ok: true,
      value: { name: 'LAN Party', version: '1.0.0', platform: 'linux', transport: 'websocket' },
    })),
    'settings.get': vi.fn(async () => ({ ok: true, value: settings })),
    'settings.update': vi.fn(async (patch?: Partial<Settings>): Promise<IpcResult<Settings>> => {
      if (patch?.playerName === '')
        return { ok: false, error: { code: 'invalid-argument', message: 'Name cannot be empty' } };
      settings = { ...settings, ...patch };
      return { ok: true, value: settings };
    }),
    onSettingsChanged: vi.fn((callback: (payload: unknown) => void) => {
      listeners.add(callback);
      return () => listeners.delete(callback);
    }),
  };
  return {
    bridge: bridge as unknown as LanPartyBridge,
    raw: bridge,
    push: (payload: unknown) => listeners.forEach((l) => l(payload)),
    listenerCount: () => listeners.size,
  };
}
