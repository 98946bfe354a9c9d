import { describe, expect, it, vi } from 'vitest';
import { connectWebSocketBridge, type SocketHandlers } from '../../renderer/src/api/webSocketBridge';

// A scripted socket: tests open, close and feed frames by hand.
function fakeSocket() {
  let handlers: SocketHandlers | null = null;
  const sent: unknown[] = [];
  const factory = vi.fn((_url: string, h: SocketHandlers) => {
    handlers = h;
    return { send: (text: string) => sent.push(JSON.parse(text)), close: vi.fn(() => h.onClose()) };
  });
  return {
    factory,
    sent,
    get handlers() {
      if (!handlers) throw new Error('socket not created');
      return handlers;
    },
  };
}

describe('WebSocket bridge', () => {
  it('connects to the given URL and resolves once open', async () => {
    const socket = fakeSocket();
    const pending = connectWebSocketBridge('ws://127.0.0.1:1/?secret=s', socket.factory);
    expect(socket.factory).toHaveBeenCalledWith('ws://127.0.0.1:1/?secret=s', expect.anything());
    socket.handlers.onOpen();
    const { bridge } = await pending;
    expect(typeof bridge['settings.get']).toBe('function');
    expect(typeof bridge.onSettingsChanged).toBe('function');
  });

  it('rejects when the socket closes before opening (wrong secret, no server)', async () => {
    const socket = fakeSocket();
    const pending = connectWebSocketBridge('ws://x', socket.factory);
    socket.handlers.onClose();
    await expect(pending).rejects.toThrow(/Could not connect/);
  });

  it('pairs responses with requests by id, in any order', async () => {
    const socket = fakeSocket();
    const pending = connectWebSocketBridge('ws://x', socket.factory);
    socket.handlers.onOpen();
    const { bridge } = await pending;
    const a = bridge['settings.get']();
    const b = bridge['settings.update']({ playerName: 'Nova' });
    expect(socket.sent).toEqual([
      { t: 'req', id: 0, name: 'settings.get' },
      { t: 'req', id: 1, name: 'settings.update', input: { playerName: 'Nova' } },
    ]);
    socket.handlers.onMessage(JSON.stringify({ t: 'res', id: 1, result: { ok: true, value: 'second' } }));
    socket.handlers.onMessage(JSON.stringify({ t: 'res', id: 0, result: { ok: true, value: 'first' } }));
    expect(await a).toEqual({ ok: true, value: 'first' });
    expect(await b).toEqual({ ok: true, value: 'second' });
  });

  it('ignores junk frames and responses to unknown ids', async () => {
    const socket = fakeSocket();
    const pending = connectWebSocketBridge('ws://x', socket.factory);
    socket.handlers.onOpen();
    const { bridge } = await pending;
    const reply = bridge['settings.get']();
    for (const junk of ['nope', '{}', JSON.stringify({ t: 'res', id: 99, result: { ok: true, value: 1 } }), 42]) {
      socket.handlers.onMessage(junk);
    }
    socket.handlers.onMessage(JSON.stringify({ t: 'res', id: 0, result: { ok: true, value: 'ok' } }));
    expect(await reply).toEqual({ ok: true, value: 'ok' });
  });

  it('routes events to their listeners until unsubscribed', async () => {
    const socket = fakeSocket();
    const pending = connectWebSocketBridge('ws://x', socket.factory);
    socket.handlers.onOpen();
    const { bridge } = await pending;
    const callback = vi.fn();
    const stop = bridge.onSettingsChanged(callback);
    socket.handlers.onMessage(JSON.stringify({ t: 'evt', name: 'settings.changed', payload: { p: 1 } }));
    socket.handlers.onMessage(JSON.stringify({ t: 'evt', name: 'other.event', payload: { p: 2 } }));
    stop();
    socket.handlers.onMessage(JSON.stringify({ t: 'evt', name: 'settings.changed', payload: { p: 3 } }));
    expect(callback.mock.calls).toEqual([[{ p: 1 }]]);
  });

  it('settles pending requests as unavailable and tells listeners when the connection drops', async () => {
    const socket = fakeSocket();
    const pending = connectWebSocketBridge('ws://x', socket.factory);
    socket.handlers.onOpen();
    const connection = await pending;
    const lost = vi.fn();
    connection.onClose(lost);
    const inFlight = connection.bridge['settings.get']();
    socket.handlers.onClose();
    expect(await inFlight).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(lost).toHaveBeenCalledOnce();
    expect(await connection.bridge['settings.get']()).toMatchObject({ ok: false, error: { code: 'unavailable' } });
  });
});
