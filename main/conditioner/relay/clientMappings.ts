import type { RemoteInfo, Socket } from 'node:dgram';

/** One client source and the socket that stands for it towards the target (a NAT-style binding). */
export interface ClientMapping {
  readonly clientAddress: string;
  readonly clientPort: number;
  readonly socket: Socket;
  lastActive: number;
  closed: boolean;
  /** True once `socket` is connected to the target: sends then name no address, and the kernel drops strays. */
  connected: boolean;
}

/** Public view of a mapping: the client, and the port the target sees it as (undefined until bound). */
export interface ClientMappingInfo {
  client: { address: string; port: number };
  relayPort: number | undefined;
  idleMs: number;
}

/**
 * The relay's NAT table: one upstream socket per distinct client (address, port), so the target sees separate
 * peers. Bounded in size; idle entries are removed by sweep(). `openSocket` may connect the socket to the target
 * (the mapping notes when it is).
 */
export class ClientMappings {
  private readonly byKey = new Map<string, ClientMapping>();
  /** The mapping used last: a steady stream from one client skips building a key string per datagram. */
  private last: ClientMapping | undefined;

  constructor(
    private readonly maxMappings: number,
    private readonly openSocket: () => Socket,
    private readonly onReply: (mapping: ClientMapping, data: Buffer, rinfo: RemoteInfo) => void,
  ) {}

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
    if (this.byKey.size >= this.maxMappings) return undefined;
    const created: ClientMapping = {
      clientAddress: address,
      clientPort: port,
      socket: this.openSocket(),
      lastActive: now,
      closed: false,
      connected: false,
    };
    created.socket.on('message', (data, rinfo) => this.onReply(created, data, rinfo));
    created.socket.once('connect', () => (created.connected = true));
    this.byKey.set(key, created);
    this.last = created;
    return created;
  }

  /** Closes and forgets mappings idle for at least `idleMs`; returns how many were removed. */
  sweep(now: number, idleMs: number): number {
    let removed = 0;
    for (const [key, mapping] of this.byKey) {
      if (now - mapping.lastActive < idleMs) continue;
      this.byKey.delete(key);
      if (this.last === mapping) this.last = undefined;
      closeMapping(mapping);
      removed++;
    }
    return removed;
  }

  /** Snapshot of the table. */
  list(now: number): ClientMappingInfo[] {
    return [...this.byKey.values()].map((m) => ({
      client: { address: m.clientAddress, port: m.clientPort },
      relayPort: boundPort(m.socket),
      idleMs: now - m.lastActive,
    }));
  }

  /** Closes every mapping; resolves once all their sockets are closed. */
  async closeAll(): Promise<void> {
    const all = [...this.byKey.values()];
    this.byKey.clear();
    this.last = undefined;
    await Promise.all(all.map((m) => closeMapping(m)));
  }
}

function boundPort(socket: Socket): number | undefined {
  try {
    return socket.address().port;
  } catch {
    return undefined; // not bound yet
  }
}

function closeMapping(mapping: ClientMapping): Promise<void> {
  if (mapping.closed) return Promise.resolve();
  mapping.closed = true;
  return new Promise((resolve) => {
    try {
      mapping.socket.close(() => resolve());
    } catch {
      resolve(); // already closed by an error path
    }
  });
}
