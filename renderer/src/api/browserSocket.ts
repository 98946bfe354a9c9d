import type { SocketFactory } from './webSocketBridge';

/** The browser's WebSocket adapted to the bridge's socket interface. */
export const browserSocket: SocketFactory = (url, handlers) => {
  const socket = new WebSocket(url);
  socket.addEventListener('open', () => handlers.onOpen());
  socket.addEventListener('message', (event) => handlers.onMessage(event.data));
  socket.addEventListener('close', () => handlers.onClose());
  return { send: (text) => socket.send(text), close: () => socket.close() };
};
