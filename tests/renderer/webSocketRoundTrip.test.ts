import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { Backend } from '../../main/createBackend';
import { silentLogger } from '../../main/base/logger';
import { startWebSocketBinding, type WebSocketBinding } from '../../main/ipc/webSocketBinding';
import { createApiFromBridge } from '../../renderer/src/api/apiFromBridge';
import { connectWebSocketBridge, type SocketFactory } from '../../renderer/src/api/webSocketBridge';
import { webSocketBindingUrl } from '../../shared/ipc/wsProtocol';
import { testBackend } from '../support/testBackend';
import { freeUdpPort, loopbackNetwork } from '../support/loopbackNetwork';

// The renderer's client against the real backend and binding, in Node (the ws package plays the browser,
// sending the Origin header a browser on the dev server's page would).
const PAGE_ORIGIN = 'http://127.0.0.1:5555';
const nodeSocket: SocketFactory = (url, handlers) => {
  const ws = new WebSocket(url, { headers: { Origin: PAGE_ORIGIN } });
  ws.on('open', () => handlers.onOpen());
  ws.on('message', (data) => handlers.onMessage(data.toString()));
  ws.on('close', () => handlers.onClose());
  ws.on('error', () => undefined);
  return { send: (text) => ws.send(text), close: () => ws.close() };
};

const SECRET = 'round-trip-secret-0123456789';
const cleanups: Array<() => unknown> = [];
let backend: Backend;
let binding: WebSocketBinding;

beforeEach(async () => {
  backend = await testBackend(cleanups, { network: loopbackNetwork(await freeUdpPort()) });
  binding = await startWebSocketBinding({
    gateway: backend.gateway,
    secret: SECRET,
    allowedOrigins: [PAGE_ORIGIN],
    logger: silentLogger,
  });
  cleanups.push(() => binding.close());
});

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('renderer client ↔ WebSocket binding', () => {
  it('calls requests, receives typed errors and events', async () => {
    const connection = await connectWebSocketBridge(binding.url, nodeSocket);
    const api = createApiFromBridge(connection.bridge);
    expect(await api['app.getInfo']()).toMatchObject({ transport: 'websocket', version: '1.0.0' });
    const changed = vi.fn();
    api.onSettingsChanged(changed);
    const expected = {
      playerName: 'Nova',
      playerColor: '#a77dff',
      onboarded: false,
      notifications: true,
      theme: 'system',
    };
    expect(await api['settings.update']({ playerName: ' Nova ', playerColor: '#A77DFF' })).toEqual(expected);
    await vi.waitFor(() => expect(changed).toHaveBeenCalledWith(expected));
    expect(await api['lobby.get']()).toMatchObject({ status: 'idle' });
    await expect(api['lobby.chat']({ text: '' })).rejects.toMatchObject({ code: 'invalid-argument' });
    // A room command answers nothing; JSON drops the empty value and the reply still parses.
    await expect(api['lobby.leave']()).resolves.toBeUndefined();
    await expect(api['settings.update']({ playerName: '' })).rejects.toMatchObject({ code: 'invalid-argument' });
    connection.close();
  });

  it('cannot connect with a wrong secret', async () => {
    await expect(
      connectWebSocketBridge(webSocketBindingUrl(binding.location.port, 'wrong-secret-0123456789'), nodeSocket),
    ).rejects.toThrow(/Could not connect/);
  });
});
