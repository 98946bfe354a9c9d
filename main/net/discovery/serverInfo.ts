import type { DiscoveryAdvert } from './discoveryReply';

/**
 * A server found through LAN discovery (the reference's ServerInfo, plus optional LAN Party fields): what it
 * advertised, with `address` = the reply's source address (never an address from the reply's JSON) and its game port.
 */
export type ServerInfo = Omit<DiscoveryAdvert, 'port' | 'nonce'> & {
  readonly address: { readonly host: string; readonly port: number };
};

/** Combines a parsed reply with the address it came from; fields the server did not send stay absent. */
export function toServerInfo(advert: DiscoveryAdvert, sourceHost: string): ServerInfo {
  const { port, nonce: _nonce, ...advertised } = advert;
  const present = Object.fromEntries(Object.entries(advertised).filter(([, v]) => v !== undefined));
  return { ...(present as Omit<DiscoveryAdvert, 'port' | 'nonce'>), address: { host: sourceHost, port } };
}

/** Identity for merging duplicate replies: the instance id when the server sent one, else host:port. */
export function serverKey(info: ServerInfo): string {
  return info.instanceId !== undefined ? `id:${info.instanceId}` : `addr:${info.address.host}:${info.address.port}`;
}
