import type { LanPartyBridge } from '../../../shared/ipc/api';
import { listenerName } from '../../../shared/ipc/channels';
import { IpcErrorCode } from '../../../shared/ipc/errors';
import { eventNames, requestNames } from '../../../shared/ipc/names';
import { err, type IpcResult } from '../../../shared/ipc/result';
import { wsServerMessageSchema } from '../../../shared/ipc/wsProtocol';

/** Callbacks a socket reports to; the factory wires them to a real WebSocket (or a fake in tests). */
export interface SocketHandlers {
  onOpen(): void;
  onMessage(data: unknown): void;
  onClose(): void;
}

/** What the bridge needs from a socket. */
export interface SocketHandle {
  send(text: string): void;
  close(): void;
}

/** Opens a socket to a URL. */
export type SocketFactory = (url: string, handlers: SocketHandlers) => SocketHandle;

/** An open WebSocket bridge. */
export interface WebSocketBridgeConnection {
  readonly bridge: LanPartyBridge;
  /** Called once if the connection drops after it opened. */
  onClose(callback: () => void): () => void;
  close(): void;
}

/** Connects to the WebSocket binding and exposes the same bridge shape the preload does. */
export function connectWebSocketBridge(url: string, createSocket: SocketFactory): Promise<WebSocketBridgeConnection> {
  return new Promise((resolve, reject) => {
    let state: 'connecting' | 'open' | 'closed' = 'connecting';
    let nextId = 0;
    const pending = new Map<number, (result: IpcResult<unknown>) => void>();
    const listeners = new Map<string, Set<(payload: unknown) => void>>();
    const closeListeners = new Set<() => void>();

    const onMessage = (data: unknown): void => {
      if (typeof data !== 'string') return;
      let json: unknown;
      try {
        json = JSON.parse(data);
      } catch {
        return;
      }
      const parsed = wsServerMessageSchema.safeParse(json);
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.t === 'res') {
        const settle = pending.get(message.id);
        pending.delete(message.id);
        settle?.(message.result as IpcResult<unknown>);
        return;
      }
      for (const callback of [...(listeners.get(message.name) ?? [])]) callback(message.payload);
    };

    const onClose = (): void => {
      const wasOpen = state === 'open';
      state = 'closed';
      if (!wasOpen) {
        reject(new Error('Could not connect to the backend (is it running, and is the secret right?)'));
        return;
      }
      for (const settle of pending.values())
        settle(err(IpcErrorCode.UNAVAILABLE, 'Connection to the backend was lost'));
      pending.clear();
      for (const callback of [...closeListeners]) callback();
    };

    const bridge: Record<string, unknown> = {};
    for (const name of requestNames) {
      bridge[name] = (input?: unknown): Promise<IpcResult<unknown>> => {
        if (state !== 'open') return Promise.resolve(err(IpcErrorCode.UNAVAILABLE, 'Not connected to the backend'));
        const id = nextId++;
        return new Promise((settle) => {
          pending.set(id, settle);
          socket.send(JSON.stringify({ t: 'req', id, name, input }));
        });
      };
    }
    for (const name of eventNames) {
      bridge[listenerName(name)] = (callback: (payload: unknown) => void) => {
        const set = listeners.get(name) ?? new Set();
        listeners.set(name, set);
        const entry = (payload: unknown): void => callback(payload);
        set.add(entry);
        return () => set.delete(entry);
      };
    }

    const socket = createSocket(url, {
      onOpen: () => {
        state = 'open';
        resolve({
          bridge: Object.freeze(bridge) as unknown as LanPartyBridge,
          onClose(callback) {
            closeListeners.add(callback);
            return () => closeListeners.delete(callback);
          },
          close: () => socket.close(),
        });
      },
      onMessage,
      onClose,
    });
  });
}
