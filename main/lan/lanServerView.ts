import type { LanList, LanServer } from '../../shared/ipc/schemas/lan';
import { DISCOVERY, serverKey, type BrowsedServer } from '../net/discovery';

/** Whether we can play on a server that advertised this discovery protocol version (undefined: did not say). */
export function compatibilityOf(protocolVersion: number | undefined): LanServer['compatibility'] {
  if (protocolVersion === undefined) return 'unknown';
  return protocolVersion === DISCOVERY.PROTOCOL_VERSION ? 'compatible' : 'incompatible';
}

/** One browsed server as the LAN list shows it. Pure. */
export function toLanServer(server: BrowsedServer, ownInstanceId: string | null): LanServer {
  return {
    id: serverKey(server),
    name: server.name,
    host: server.address.host,
    port: server.address.port,
    playerCount: server.playerCount,
    capacity: server.capacity ?? null,
    pingMs: server.pingMs ?? null,
    passwordProtected: server.passwordProtected ?? false,
    protocolVersion: server.protocolVersion ?? null,
    compatibility: compatibilityOf(server.protocolVersion),
    gameName: server.gameName ?? null,
    own: ownInstanceId !== null && server.instanceId === ownInstanceId,
  };
}

/** The list payload: servers as browsed (sorted by name), plus whether the search runs and why not. */
export function lanListOf(
  running: boolean,
  servers: readonly BrowsedServer[],
  ownInstanceId: string | null,
  error: string | null,
): LanList {
  return { running, servers: servers.map((server) => toLanServer(server, ownInstanceId)), error };
}
