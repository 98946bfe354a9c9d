import type { LanPartyBridge } from '../../../shared/ipc/api';
import { parseBindingHash } from '../../../shared/ipc/bindingHash';
import { webSocketBindingUrl } from '../../../shared/ipc/wsProtocol';
import { createApiFromBridge } from '../api/apiFromBridge';
import { browserSocket } from '../api/browserSocket';
import { connectWebSocketBridge } from '../api/webSocketBridge';
import type { GameApi } from './gameApi';

/** A link to the backend used only by the game screen. */
export interface GameApiLink {
  readonly api: GameApi;
  close(): void;
}

/** The bits of `window` this reads. */
interface GameApiHost {
  readonly lanParty?: LanPartyBridge;
  readonly location: { readonly hash: string };
}

/**
 * Opens the game screen's own link to the backend when the room screen does not hand it the app's API: inside
 * Electron the preload's bridge (nothing to open), in the browser a second connection to the WebSocket binding
 * named in the URL, closed with the stage.
 */
export async function openGameApi(host: GameApiHost): Promise<GameApiLink> {
  const warn = (message: string) => console.warn('[lanParty game]', message);
  if (host.lanParty) return { api: createApiFromBridge(host.lanParty, warn), close: () => undefined };
  const location = parseBindingHash(host.location.hash);
  if (!location) throw new Error('no backend named in the page address');
  const connection = await connectWebSocketBridge(webSocketBindingUrl(location.port, location.secret), browserSocket);
  return { api: createApiFromBridge(connection.bridge, warn), close: () => connection.close() };
}
