import type { DiscoveryAdvert } from './discoveryReply';

/** A server found through LAN discovery (the reference's ServerInfo, plus optional LAN Party fields). */
export interface ServerInfo {
  readonly name: string;
  /** Where to connect: the reply's source address (never an address from the reply's JSON) and its game port. */
  readonly address: { readonly host: string; readonly port: number };
  readonly playerCount: number;
  readonly protocolVersion?: number;
  readonly capacity?: number;
  readonly passwordProtected?: boolean;
  readonly gameName?: string;
  /** Present for LAN Party servers; identifies one server across interfaces. */
  readonly instanceId?: string;
}

/** Combines a parsed reply with the address it came from. */
export function toServerInfo(advert: DiscoveryAdvert, sourceHost: string): ServerInfo {
  const { name, port, playerCount, protocolVersion, capacity, passwordProtected, gameName, instanceId } = advert;
  return {
    name,
    address: { host: sourceHost, port },
    playerCount,
    ...(protocolVersion !== undefined ? { protocolVersion } : {}),
    ...(capacity !== undefined ? { capacity } : {}),
    ...(passwordProtected !== undefined ? { passwordProtected } : {}),
    ...(gameName !== undefined ? { gameName } : {}),
    ...(instanceId !== undefined ? { instanceId } : {}),
  };
}

/** Identity for merging duplicate replies: the instance id when the server sent one, else host:port. */
export function serverKey(info: ServerInfo): string {
  return info.instanceId !== undefined ? `id:${info.instanceId}` : `addr:${info.address.host}:${info.address.port}`;
}
