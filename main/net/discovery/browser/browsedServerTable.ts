import type { DiscoveryAdvert } from '../advert/discoveryReply';

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

/** A server in the live list, with when it was seen and how fast it answered. */
export interface BrowsedServer extends ServerInfo {
  /** Round trip of the latest answered query, in ms; absent when only announcements were heard. */
  readonly pingMs?: number;
  readonly firstSeenAt: number;
  readonly lastSeenAt: number;
}

/** What one observation or sweep did to the list. */
export type BrowsedServerChange =
  | { readonly kind: 'appeared'; readonly server: BrowsedServer }
  | { readonly kind: 'changed'; readonly server: BrowsedServer; readonly previous: BrowsedServer }
  | { readonly kind: 'gone'; readonly server: BrowsedServer };

interface Entry {
  server: BrowsedServer;
  /** When the entry's current address last answered, to move to another interface if it goes quiet. */
  addressSeenAt: number;
}

const SHOWN_FIELDS = [
  'name',
  'playerCount',
  'protocolVersion',
  'capacity',
  'passwordProtected',
  'gameName',
  'hostName',
  'state',
  'pingMs',
] as const satisfies ReadonlyArray<keyof BrowsedServer>;

function differs(a: BrowsedServer, b: BrowsedServer): boolean {
  if (a.address.host !== b.address.host || a.address.port !== b.address.port) return true;
  return SHOWN_FIELDS.some((field) => a[field] !== b[field]);
}

/**
 * The browser's list, as pure state: merges duplicate replies (same instance id across interfaces, or same
 * host:port), keeps the address that has been answering, and expires servers silent for `goneAfterMs`.
 */
export class BrowsedServerTable {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly goneAfterMs: number) {}

  /** Records a reply or announcement heard at `now`; `pingMs` undefined keeps the last measured ping. */
  observe(info: ServerInfo, now: number, pingMs: number | undefined): BrowsedServerChange | undefined {
    const key = serverKey(info);
    const entry = this.entries.get(key);
    if (!entry) {
      const server: BrowsedServer = {
        ...info,
        ...(pingMs !== undefined ? { pingMs } : {}),
        firstSeenAt: now,
        lastSeenAt: now,
      };
      this.entries.set(key, { server, addressSeenAt: now });
      return { kind: 'appeared', server };
    }
    const previous = entry.server;
    const sameAddress = info.address.host === previous.address.host && info.address.port === previous.address.port;
    const moveAddress = !sameAddress && now - entry.addressSeenAt > this.goneAfterMs / 2;
    if (sameAddress || moveAddress) entry.addressSeenAt = now;
    const ping = sameAddress || moveAddress ? (pingMs ?? previous.pingMs) : previous.pingMs;
    const server: BrowsedServer = {
      ...info,
      address: moveAddress || sameAddress ? info.address : previous.address,
      ...(ping !== undefined ? { pingMs: ping } : {}),
      firstSeenAt: previous.firstSeenAt,
      lastSeenAt: now,
    };
    entry.server = server;
    return differs(previous, server) ? { kind: 'changed', server, previous } : undefined;
  }

  /** Removes servers not heard from for longer than `goneAfterMs`. */
  sweep(now: number): BrowsedServerChange[] {
    const gone: BrowsedServerChange[] = [];
    for (const [key, entry] of this.entries) {
      if (now - entry.server.lastSeenAt > this.goneAfterMs) {
        this.entries.delete(key);
        gone.push({ kind: 'gone', server: entry.server });
      }
    }
    return gone;
  }

  /** Current servers, sorted by name then address. */
  list(): BrowsedServer[] {
    return [...this.entries.values()]
      .map((entry) => entry.server)
      .sort(
        (a, b) =>
          a.name.localeCompare(b.name) ||
          a.address.host.localeCompare(b.address.host) ||
          a.address.port - b.address.port,
      );
  }

  /** Empties the list. */
  clear(): void {
    this.entries.clear();
  }
}
