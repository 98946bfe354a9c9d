import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BRIDGE_GLOBAL,
  BRIDGE_NAMES_CHANNEL,
  eventChannel,
  listenerName,
  parseBridgeNames,
  requestChannel,
} from '../../shared/ipc/channels';
import { eventNames, requestNames } from '../../shared/ipc/names';

// The preload against a fake Electron: what it hands to exposeInMainWorld is exactly what the page gets.
const exposed = new Map<string, unknown>();
const ipcRenderer = {
  invoke: vi.fn((..._args: unknown[]) => Promise.resolve({ ok: true, value: 'reply' })),
  on: vi.fn(),
  removeListener: vi.fn(),
  send: vi.fn(),
  // Main's answer on the names channel (see electronBinding.ts): the contract's names.
  sendSync: vi.fn((channel: string) =>
    channel === BRIDGE_NAMES_CHANNEL ? { requests: [...requestNames], events: [...eventNames] } : undefined,
  ),
  postMessage: vi.fn(),
};
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer,
}));

let bridge: Record<string, (...args: unknown[]) => unknown>;
beforeAll(async () => {
  await import('../../preload/index');
  bridge = exposed.get(BRIDGE_GLOBAL) as typeof bridge;
});

describe('preload bridge', () => {
  it('exposes exactly one global, window.lanParty', () => {
    expect([...exposed.keys()]).toEqual(['lanParty']);
  });

  it('asks main for the names once, on the names channel', () => {
    expect(ipcRenderer.sendSync).toHaveBeenCalledExactlyOnceWith(BRIDGE_NAMES_CHANNEL);
  });

  it('refuses names that are not main’s answer', () => {
    for (const bad of [
      undefined,
      null,
      'lobby.get',
      { requests: ['lobby.get'] },
      { requests: ['lobby.get', 42], events: [] },
      { requests: ['__proto__'], events: [] },
      { requests: ['x'.repeat(3)], events: [] },
      { requests: Array.from({ length: 501 }, () => 'a.b'), events: [] },
    ]) {
      expect(() => parseBridgeNames(bad)).toThrow(TypeError);
    }
    expect(parseBridgeNames({ requests: ['lobby.get'], events: ['lobby.changed'] })).toEqual({
      requests: ['lobby.get'],
      events: ['lobby.changed'],
    });
  });

  it('exposes one function per request and one listener per event, and nothing else', () => {
    const expected = [...requestNames, ...eventNames.map((name) => listenerName(name))].sort();
    expect(Object.keys(bridge).sort()).toEqual(expected);
    for (const value of Object.values(bridge)) expect(typeof value).toBe('function');
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it('never leaks ipcRenderer or its methods', () => {
    const values = Object.values(bridge);
    for (const leaked of [ipcRenderer, ipcRenderer.invoke, ipcRenderer.send, ipcRenderer.on, ipcRenderer.sendSync]) {
      expect(values).not.toContain(leaked);
    }
    for (const key of ['ipcRenderer', 'invoke', 'send', 'on', 'sendSync', 'postMessage']) {
      expect(bridge).not.toHaveProperty(key);
    }
  });

  it('forwards a request on its channel with exactly one argument and returns the reply data', async () => {
    ipcRenderer.invoke.mockClear();
    await expect(bridge['settings.update']!({ playerName: 'Nova' }, 'extra', 'args')).resolves.toEqual({
      ok: true,
      value: 'reply',
    });
    expect(ipcRenderer.invoke).toHaveBeenCalledExactlyOnceWith(requestChannel('settings.update'), {
      playerName: 'Nova',
    });
    await bridge['settings.get']!();
    expect(ipcRenderer.invoke).toHaveBeenLastCalledWith(requestChannel('settings.get'), undefined);
  });

  it('subscribes with onX, hands the callback only the payload, and unsubscribes once', () => {
    ipcRenderer.on.mockClear();
    const callback = vi.fn();
    const unsubscribe = bridge.onSettingsChanged!(callback) as () => void;
    expect(ipcRenderer.on).toHaveBeenCalledOnce();
    const [channel, listener] = ipcRenderer.on.mock.calls[0] as [string, (event: unknown, payload: unknown) => void];
    expect(channel).toBe(eventChannel('settings.changed'));
    listener({ sender: ipcRenderer, ports: [] }, { playerName: 'Nova' });
    expect(callback).toHaveBeenCalledExactlyOnceWith({ playerName: 'Nova' });
    unsubscribe();
    unsubscribe();
    expect(ipcRenderer.removeListener).toHaveBeenCalledExactlyOnceWith(channel, listener);
  });

  it('refuses a listener that is not a function', () => {
    expect(() => bridge.onSettingsChanged!('nope')).toThrow(TypeError);
  });
});
