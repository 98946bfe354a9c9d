import type { DatagramSocket, DatagramSource } from '../../net/index';

/**
 * Most datagrams a mapping holds while its socket opens (a bind and a connect: a loop turn or two). Above a read
 * pass (libuv reads 32 a socket) and a bench window (128), so a new client's first burst gets through whole.
 */
export const MAX_WAITING = 256;

/** One client source and the socket that stands for it towards the target (a NAT-style binding). */
export interface ClientMapping {
  readonly clientAddress: string;
  readonly clientPort: number;
  /** Undefined while the socket opens (and connects); then the socket datagrams to the target leave from. */
  socket: DatagramSocket | undefined;
  /** Datagrams sent while the socket opens, oldest first, at most {@link MAX_WAITING} (the relay's own copies). */
  readonly waiting: Uint8Array[];
  lastActive: number;
  closed: boolean;
  /** True once `socket` is connected to the target: sends then name no address, and strays are dropped unseen. */
  connected: boolean;
}

/** Public view of a mapping: the client, and the port the target sees it as (undefined until bound). */
export interface ClientMappingInfo {
  client: { address: string; port: number };
  relayPort: number | undefined;
  idleMs: number;
}

/** What the table needs from the relay: where sockets come from and where their traffic and failures go. */
export interface ClientMappingsOptions {
  maxMappings: number;
  /** Where every mapping socket is connected. */
  target: DatagramSource;
  /** Opens (binds) one mapping socket. */
  open(): Promise<DatagramSocket>;
  /** A datagram that reached a mapping's socket; `data` is the socket's until this returns. */
  reply(mapping: ClientMapping, data: Uint8Array, from: DatagramSource): void;
  /** A mapping's socket is ready: send what waits in `mapping.waiting`. */
  ready(mapping: ClientMapping): void;
  /** A socket error or failed send, bind or connect (counted; the relay keeps running). */
  error(): void;
}

/**
 * The relay's NAT table: one upstream socket per distinct client (address, port), so the target sees separate
 * peers. Bounded in size; idle entries are removed by sweep(). Each socket opens asynchronously and is connected
 * to the target; until then the mapping holds a few datagrams (see {@link ClientMapping.waiting}).
 */
export class ClientMappings {
  private readonly byKey = new Map<string, ClientMapping>();
  /** The mapping used last: a steady stream from one client skips building a key string per datagram. */
  private last: ClientMapping | undefined;
  /** Sockets still opening, so closeAll() can wait for (and close) them. */
  private readonly opening = new Set<Promise<void>>();
  private readonly onError = (): void => this.options.error();

  constructor(private readonly options: ClientMappingsOptions) {}

  /** Number of live mappings. */
  get size(): number {
    return this.byKey.size;
  }

  /** The mapping for a client, created on first sight; undefined when the table is full. */
  acquire(address: string, port: number, now: number): ClientMapping | undefined {
    const last = this.last;
    if (last !== undefined && !last.closed && last.clientPort === port && last.clientAddress === address) {
      last.lastActive = now;
      return last;
    }
    const key = `${address}|${port}`;
    const mapping = this.byKey.get(key);
    if (mapping !== undefined) {
      mapping.lastActive = now;
      this.last = mapping;
      return mapping;
    }
    if (this.byKey.size >= this.options.maxMappings) return undefined;
    const created: ClientMapping = {
      clientAddress: address,
      clientPort: port,
      socket: undefined,
      waiting: [],
      lastActive: now,
      closed: false,
      connected: false,
    };
    this.byKey.set(key, created);
    this.last = created;
    const opening = this.open(created, key).finally(() => this.opening.delete(opening));
    this.opening.add(opening);
    return created;
  }

  /** Holds a datagram (the caller's copy) until the mapping's socket is ready; false when already full. */
  hold(mapping: ClientMapping, data: Uint8Array): boolean {
    if (mapping.waiting.length >= MAX_WAITING) return false;
    mapping.waiting.push(data);
    return true;
  }

  /** Closes and forgets mappings idle for at least `idleMs`; returns how many were removed. */
  sweep(now: number, idleMs: number): number {
    let removed = 0;
    for (const [key, mapping] of this.byKey) {
      if (now - mapping.lastActive < idleMs) continue;
      this.forget(key, mapping);
      void closeMapping(mapping);
      removed++;
    }
    return removed;
  }

  /** Snapshot of the table. */
  list(now: number): ClientMappingInfo[] {
    return [...this.byKey.values()].map((m) => ({
      client: { address: m.clientAddress, port: m.clientPort },
      relayPort: m.socket?.port,
      idleMs: now - m.lastActive,
    }));
  }

  /** Closes every mapping; resolves once all their sockets, opening ones included, are closed. */
  async closeAll(): Promise<void> {
    const all = [...this.byKey.values()];
    this.byKey.clear();
    this.last = undefined;
    await Promise.all([...all.map((m) => closeMapping(m)), ...this.opening]);
  }

  /** Opens and connects the mapping's socket, then hands it over; a socket whose mapping closed meanwhile is closed. */
  private async open(mapping: ClientMapping, key: string): Promise<void> {
    let socket: DatagramSocket;
    try {
      socket = await this.options.open();
    } catch {
      // No socket (ports exhausted, say): forget the mapping, so the client's next datagram tries again.
      this.onError();
      this.forget(key, mapping);
      mapping.closed = true;
      return;
    }
    socket.listen({
      message: (data, from) => this.options.reply(mapping, data, from),
      sendError: this.onError,
      error: this.onError,
    });
    if (!mapping.closed) {
      // Connected, a send names no address: the kernel reuses its route instead of looking one up per datagram, which
      // took the worker relay from 0.79× to ~0.9× raw dgram on the bench. A failed connect is counted; the mapping
      // then sends with the address.
      const { port, address } = this.options.target;
      await socket.connect(port, address).then(() => (mapping.connected = true), this.onError);
    }
    if (mapping.closed) {
      await socket.close();
      return;
    }
    mapping.socket = socket;
    this.options.ready(mapping);
  }

  private forget(key: string, mapping: ClientMapping): void {
    if (this.byKey.get(key) === mapping) this.byKey.delete(key);
    if (this.last === mapping) this.last = undefined;
  }
}

function closeMapping(mapping: ClientMapping): Promise<void> {
  if (mapping.closed) return Promise.resolve();
  mapping.closed = true;
  mapping.waiting.length = 0;
  // A socket still opening is closed by open() once it sees the mapping closed.
  return mapping.socket?.close() ?? Promise.resolve();
}
