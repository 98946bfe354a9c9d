import { describe, expect, it, vi } from 'vitest';
import { IpcError } from '../../shared/ipc/errors';
import { createApiFromBridge } from '../../renderer/src/api/apiFromBridge';
import { fakeBridge } from './fakeBridge';

describe('renderer API over a bridge', () => {
  it('resolves requests to their output', async () => {
    const { bridge } = fakeBridge();
    const api = createApiFromBridge(bridge);
    expect(await api['settings.get']()).toEqual({
      playerName: 'ada',
      playerColor: '#3ddc97',
      onboarded: true,
      notifications: true,
      theme: 'system',
    });
    expect(await api['app.getInfo']()).toMatchObject({ transport: 'websocket' });
    expect(await api['settings.update']({ playerName: 'Nova' })).toMatchObject({ playerName: 'Nova' });
  });

  it('rejects with an IpcError carrying the code when the result is an error', async () => {
    const api = createApiFromBridge(fakeBridge().bridge);
    const failure = api['settings.update']({ playerName: '' });
    await expect(failure).rejects.toBeInstanceOf(IpcError);
    await expect(failure).rejects.toMatchObject({ code: 'invalid-argument', message: 'Name cannot be empty' });
  });

  it('rejects replies that are malformed or break the contract', async () => {
    const { bridge, raw } = fakeBridge();
    const api = createApiFromBridge(bridge);
    raw['settings.get'].mockResolvedValueOnce('garbage' as never);
    await expect(api['settings.get']()).rejects.toMatchObject({ code: 'internal' });
    raw['settings.get'].mockResolvedValueOnce({ ok: true, value: { playerName: 5 } } as never);
    await expect(api['settings.get']()).rejects.toMatchObject({ code: 'internal' });
  });

  it('maps a bridge that throws (no handler in main) to unavailable', async () => {
    const { bridge, raw } = fakeBridge();
    raw['settings.get'].mockRejectedValueOnce(new Error("No handler registered for 'x'"));
    await expect(createApiFromBridge(bridge)['settings.get']()).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('delivers contract-valid events, drops invalid ones, and unsubscribes', () => {
    const { bridge, push, listenerCount } = fakeBridge();
    const warn = vi.fn();
    const api = createApiFromBridge(bridge, warn);
    const callback = vi.fn();
    const stop = api.onSettingsChanged(callback);
    push({ playerName: 'Nova', playerColor: '#a77dff', onboarded: true, notifications: true, theme: 'system' });
    push({ playerName: 42 });
    expect(callback).toHaveBeenCalledExactlyOnceWith({
      playerName: 'Nova',
      playerColor: '#a77dff',
      onboarded: true,
      notifications: true,
      theme: 'system',
    });
    expect(warn).toHaveBeenCalledOnce();
    stop();
    expect(listenerCount()).toBe(0);
  });
});
