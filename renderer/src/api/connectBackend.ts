import type { LanPartyBridge } from '../../../shared/ipc/api';
import { parseBindingHash } from '../../../shared/ipc/bindingHash';
import { webSocketBindingUrl } from '../../../shared/ipc/wsProtocol';
import { createApiFromBridge } from './apiFromBridge';
import type { BackendConnection } from './backendConnection';
import { connectWebSocketBridge, type SocketFactory } from './webSocketBridge';

/** The bits of `window` this reads; a plain object in tests. */
export interface BackendHost {
  readonly lanParty?: LanPartyBridge;
  readonly location: { readonly hash: string };
}

/** Uses the preload's bridge inside Electron, else the WebSocket binding named in the URL hash. */
export async function connectBackend(
  host: BackendHost,
  createSocket: SocketFactory,
  warn: (message: string) => void = () => {},
): Promise<BackendConnection> {
  if (host.lanParty) return { api: createApiFromBridge(host.lanParty, warn), onClose: () => () => {} };
  const location = parseBindingHash(host.location.hash);
  if (!location) {
    throw new Error('No backend found. Run the desktop app (npm start), or open the URL printed by npm run dev:web.');
  }
  const connection = await connectWebSocketBridge(webSocketBindingUrl(location.port, location.secret), createSocket);
  return { api: createApiFromBridge(connection.bridge, warn), onClose: (callback) => connection.onClose(callback) };
}
