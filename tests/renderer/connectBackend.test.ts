import { describe, expect, it, vi } from 'vitest';
import { connectBackend } from '../../renderer/src/api/connectBackend';
import type { SocketHandlers } from '../../renderer/src/api/webSocketBridge';
import { fakeBridge } from './fakeBridge';

const SECRET = 'abcdefghijklmnop0123456789';

describe('backend selection', () => {
  it('uses the preload bridge when window.lanParty exists, without opening a socket', async () => {
    const createSocket = vi.fn();
    const { api } = await connectBackend({ lanParty: fakeBridge().bridge, location: { hash: '' } }, createSocket);
    expect(await api['settings.get']()).toMatchObject({ playerName: 'ada' });
    expect(createSocket).not.toHaveBeenCalled();
  });

  it('prefers the preload bridge even when the hash names a binding', async () => {
    const createSocket = vi.fn();
    const hash = `#ws=4000&secret=${SECRET}`;
    await connectBackend({ lanParty: fakeBridge().bridge, location: { hash } }, createSocket);
    expect(createSocket).not.toHaveBeenCalled();
  });

  it('otherwise connects to the loopback binding from the URL hash', async () => {
    const createSocket = vi.fn((_url: string, handlers: SocketHandlers) => {
      queueMicrotask(() => handlers.onOpen());
      return { send: vi.fn(), close: vi.fn() };
    });
    await connectBackend({ location: { hash: `#ws=4000&secret=${SECRET}` } }, createSocket);
    expect(createSocket).toHaveBeenCalledWith(`ws://127.0.0.1:4000/?secret=${SECRET}`, expect.anything());
  });

  it('explains what to do when there is no backend at all', async () => {
    await expect(connectBackend({ location: { hash: '#ws=nope' } }, vi.fn())).rejects.toThrow(/npm run dev:web/);
  });
});
