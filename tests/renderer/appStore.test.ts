import { describe, expect, it, vi } from 'vitest';
import { createApiFromBridge } from '../../renderer/src/api/apiFromBridge';
import type { BackendConnection } from '../../renderer/src/api/backendConnection';
import { createAppStore } from '../../renderer/src/state/appStore';
import { fakeBridge } from './fakeBridge';

function setup() {
  const fake = fakeBridge();
  let dropConnection: () => void = () => {};
  const connection: BackendConnection = {
    api: createApiFromBridge(fake.bridge),
    onClose: (callback) => {
      dropConnection = callback;
      return () => {
        dropConnection = () => {};
      };
    },
  };
  const connect = vi.fn(async () => connection);
  const store = createAppStore(connect);
  return { store, fake, connect, drop: () => dropConnection() };
}

describe('app store', () => {
  it('starts loading, then holds app info and settings from the contract', async () => {
    const { store } = setup();
    expect(store.getState().status).toBe('loading');
    await store.getState().start();
    expect(store.getState()).toMatchObject({
      status: 'ready',
      appInfo: { transport: 'websocket' },
      settings: { playerName: 'ada', playerColor: '#3ddc97', onboarded: true, notifications: true, theme: 'system' },
      lobby: { status: 'idle' },
    });
  });

  it('holds the one backend link (the game stage plays through it) while connected, none before or after', async () => {
    const { store, connect } = setup();
    expect(store.getState().api).toBeNull();
    await store.getState().start();
    const { api } = await connect.mock.results[0]!.value;
    expect(store.getState().api).toBe(api);
    await store.getState().start();
    expect(connect).toHaveBeenCalledTimes(2);
    store.getState().stop();
    expect(store.getState().api).toBeNull();
    connect.mockRejectedValueOnce(new Error('No backend found.'));
    await store.getState().start();
    expect(store.getState()).toMatchObject({ status: 'error', api: null });
  });

  it('shows the connection error and can retry', async () => {
    const { store, connect } = setup();
    connect.mockRejectedValueOnce(new Error('No backend found.'));
    await store.getState().start();
    expect(store.getState()).toMatchObject({ status: 'error', loadError: 'No backend found.' });
    await store.getState().start();
    expect(store.getState().status).toBe('ready');
  });

  it('fails the load when a request fails', async () => {
    const { store, fake } = setup();
    fake.raw['settings.get'].mockResolvedValueOnce({
      ok: false,
      error: { code: 'internal', message: 'disk' },
    } as never);
    await store.getState().start();
    expect(store.getState()).toMatchObject({ status: 'error', loadError: 'disk' });
    expect(fake.listenerCount()).toBe(0);
  });

  it('saves settings and reports success', async () => {
    const { store } = setup();
    await store.getState().start();
    expect(await store.getState().saveSettings({ playerName: 'Nova' })).toBe(true);
    expect(store.getState()).toMatchObject({ saveStatus: 'saved', settings: { playerName: 'Nova' } });
  });

  it('reports a rejected save with the backend message and keeps the settings', async () => {
    const { store } = setup();
    await store.getState().start();
    expect(await store.getState().saveSettings({ playerName: '' })).toBe(false);
    expect(store.getState()).toMatchObject({
      saveStatus: 'error',
      saveError: 'Name cannot be empty',
      settings: { playerName: 'ada' },
    });
  });

  it('follows settings.changed events and flags a dropped connection', async () => {
    const { store, fake, drop } = setup();
    await store.getState().start();
    fake.push({
      playerName: 'Elsewhere',
      playerColor: '#a3e048',
      onboarded: true,
      notifications: true,
      theme: 'system',
    });
    expect(store.getState().settings).toEqual({
      playerName: 'Elsewhere',
      playerColor: '#a3e048',
      onboarded: true,
      notifications: true,
      theme: 'system',
    });
    drop();
    expect(store.getState().connectionLost).toBe(true);
  });

  it('keeps the storage warning that comes with settings, and drops it when a later view has none', async () => {
    const { store, fake } = setup();
    await store.getState().start();
    const storageWarning = 'Your settings could not be saved to /x/settings.json (permission denied).';
    fake.push({
      playerName: 'ada',
      playerColor: '#3ddc97',
      onboarded: true,
      notifications: true,
      theme: 'system',
      storageWarning,
    });
    expect(store.getState().settings?.storageWarning).toBe(storageWarning);
    fake.push({ playerName: 'ada', playerColor: '#3ddc97', onboarded: true, notifications: true, theme: 'system' });
    expect(store.getState().settings?.storageWarning).toBeUndefined();
  });

  it('stop drops subscriptions, and a restart resubscribes once', async () => {
    const { store, fake } = setup();
    await store.getState().start();
    store.getState().stop();
    expect(fake.allListenerCount()).toBe(0);
    await store.getState().start();
    await store.getState().start();
    expect(fake.allListenerCount()).toBe(3);
  });

  it('a save before the connection exists does nothing', async () => {
    const { store } = setup();
    expect(await store.getState().saveSettings({ playerName: 'Nova' })).toBe(false);
  });
});
