import { isIP } from 'node:net';
import { BindError } from '../errors';
import type {
  DatagramHandlers,
  DatagramSocket,
  DatagramSource,
  OpenDatagramSocket,
  OpenDatagramSocketOptions,
} from './datagramSocket';

/** Decides the fate of one datagram on a {@link MemoryNetwork}: true drops it (loss, a partition). */
export type MemoryDropFilter = (datagram: Uint8Array, from: DatagramSource, to: DatagramSource) => boolean;

/** Options of {@link createMemoryNetwork}. */
export interface MemoryNetworkOptions {
  /** The address a socket bound to 0.0.0.0 (every Client's) gets. Default 127.0.0.1. */
  defaultAddress?: string;
  /** Initial drop filter; replace it any time through {@link MemoryNetwork.drop}. Default: nothing dropped. */
  drop?: MemoryDropFilter;
  /**
   * Destinations that reach every socket bound on the port, from senders that asked for `broadcast`.
   * Default 255.255.255.255 and 127.255.255.255 (nothing leaves the process either way).
   */
  broadcastAddresses?: readonly string[];
}

/** Traffic on a memory network so far. */
export interface MemoryNetworkStats {
  sent: number;
  delivered: number;
  /** Dropped by the filter, or sent to an address where no socket is bound. */
  dropped: number;
}

const DEFAULT_BROADCAST = ['255.255.255.255', '127.255.255.255'];

/** An in-memory datagram network for tests: pass `openSocket` as a Server's or Client's option. */
export interface MemoryNetwork {
  /** Binds a socket on this network (a busy port rejects with a BindError, as UDP does). */
  readonly openSocket: OpenDatagramSocket;
  /** Called for every datagram at send time; true drops it. Assign to start or stop losses. */
  drop: MemoryDropFilter | undefined;
  readonly stats: Readonly<MemoryNetworkStats>;
  /** Sockets currently bound. */
  readonly boundSockets: number;
}

interface InTransit {
  datagram: Uint8Array;
  from: DatagramSource;
  to: DatagramSource;
  sender: MemorySocket;
  done: ((error: Error | null) => void) | undefined;
}

const FIRST_EPHEMERAL_PORT = 49_152;

/**
 * A network of {@link DatagramSocket}s in this process, for tests (IPv4 and IPv6 alike: a socket bound to `::` gets
 * ::1, and sends only to its own family): datagrams are copied at `send` and
 * delivered in order on a later event-loop turn (never from inside `send`, as with UDP), unless `drop` says so.
 * A connected socket sending to an unbound address hears ECONNREFUSED, as on Linux. Sockets that ask for
 * `reuseAddr` share a port: a broadcast reaches each of them, a unicast the one bound last (as on Linux).
 */
export function createMemoryNetwork(options: MemoryNetworkOptions = {}): MemoryNetwork {
  return new MemoryNetworkImpl(
    options.defaultAddress ?? '127.0.0.1',
    options.drop,
    new Set(options.broadcastAddresses ?? DEFAULT_BROADCAST),
  );
}

class MemoryNetworkImpl implements MemoryNetwork {
  drop: MemoryDropFilter | undefined;
  readonly stats: MemoryNetworkStats = { sent: 0, delivered: 0, dropped: 0 };
  /** Sockets by `address:port`; more than one only when all asked for reuseAddr. */
  private readonly bound = new Map<string, MemorySocket[]>();
  private inTransit: InTransit[] = [];
  private nextPort = FIRST_EPHEMERAL_PORT;

  constructor(
    private readonly defaultAddress: string,
    drop: MemoryDropFilter | undefined,
    private readonly broadcastAddresses: ReadonlySet<string>,
  ) {
    this.drop = drop;
  }

  get boundSockets(): number {
    let count = 0;
    for (const sockets of this.bound.values()) count += sockets.length;
    return count;
  }

  readonly openSocket: OpenDatagramSocket = async (options) => {
    await Promise.resolve(); // binding answers later, as dgram's does
    const family = options.family ?? 4;
    const address = options.host === '0.0.0.0' ? this.defaultAddress : options.host === '::' ? '::1' : options.host;
    const { port } = options;
    if (isIP(address) !== family)
      throw new BindError(port, options.host, 'EADDRNOTAVAIL', `not an IPv${family} address`);
    if (!(Number.isInteger(port) && port >= 0 && port <= 65_535))
      throw new BindError(port, options.host, 'EINVAL', 'port out of range');
    const chosen = port === 0 ? this.freePort(address) : port;
    const key = `${address}:${chosen}`;
    const sharing = this.bound.get(key) ?? [];
    if (sharing.some((other) => !(other.reuseAddr && options.reuseAddr)))
      throw new BindError(port, options.host, 'EADDRINUSE', 'in use');
    const socket = new MemorySocket(this, { address, port: chosen }, options);
    this.bound.set(key, [...sharing, socket]);
    return socket;
  };

  /** Whether a datagram to `address` goes to every socket on its port. */
  isBroadcast(address: string): boolean {
    return this.broadcastAddresses.has(address);
  }

  /** Queues a copy of `datagram` for delivery, unless the filter drops it. */
  send(
    sender: MemorySocket,
    datagram: Uint8Array,
    to: DatagramSource,
    done: ((error: Error | null) => void) | undefined,
  ): void {
    this.stats.sent += 1;
    const from = { address: sender.address, port: sender.port };
    const dropped = this.drop?.(datagram, from, to) ?? false;
    if (dropped) this.stats.dropped += 1;
    if (dropped && !done) return;
    if (this.inTransit.length === 0) setImmediate(this.deliver);
    this.inTransit.push(
      dropped
        ? { datagram: new Uint8Array(0), from, to: DROPPED, sender, done }
        : { datagram: Uint8Array.from(datagram), from, to, sender, done },
    );
  }

  /** Forgets a closed socket's address. */
  unbind(socket: MemorySocket): void {
    const key = `${socket.address}:${socket.port}`;
    const left = (this.bound.get(key) ?? []).filter((other) => other !== socket);
    if (left.length > 0) this.bound.set(key, left);
    else this.bound.delete(key);
  }

  /** The sockets a datagram to `to` reaches: all on the port for a broadcast, else the one bound last. */
  private receivers(to: DatagramSource): MemorySocket[] {
    if (this.isBroadcast(to.address)) {
      const all: MemorySocket[] = [];
      for (const sockets of this.bound.values()) if (sockets[0]?.port === to.port) all.push(...sockets);
      return all;
    }
    const sockets = this.bound.get(`${to.address}:${to.port}`);
    return sockets ? sockets.slice(-1) : [];
  }

  /** Hands every datagram in transit to the socket bound at its destination, in the order sent. */
  private readonly deliver = (): void => {
    const batch = this.inTransit;
    this.inTransit = [];
    for (const { datagram, from, to, sender, done } of batch) {
      done?.(null); // the datagram left, as far as its sender can tell
      if (to === DROPPED) continue;
      const targets = this.receivers(to).filter((target) => target.accepts(from));
      for (const target of targets) target.receive(datagram, from);
      if (targets.length > 0) {
        this.stats.delivered += 1;
        continue;
      }
      this.stats.dropped += 1;
      if (!this.bound.has(`${to.address}:${to.port}`) && sender.isConnectedTo(to)) sender.refused();
    }
  };

  private freePort(address: string): number {
    for (let tries = 0; tries < 16_384; tries++) {
      const port = this.nextPort;
      this.nextPort = port >= 65_535 ? FIRST_EPHEMERAL_PORT : port + 1;
      if (!this.bound.has(`${address}:${port}`)) return port;
    }
    throw new BindError(0, address, 'EADDRINUSE', 'no free ephemeral port');
  }
}

/** Destination of a dropped datagram kept in transit only to complete its sender's `done` in order. */
const DROPPED: DatagramSource = { address: '', port: -1 };

const NO_HANDLERS: DatagramHandlers = { message: () => undefined, sendError: () => undefined, error: () => undefined };

/** One socket on a {@link MemoryNetwork}. */
class MemorySocket implements DatagramSocket {
  readonly address: string;
  readonly port: number;
  readonly recvBufferSize: number;
  /** No send buffer to fill: sends are copied at once. */
  readonly sendBufferSize = 0;
  readonly reuseAddr: boolean;
  private readonly family: number;
  private readonly reportSendErrors: boolean;
  private readonly broadcast: boolean;
  private handlers = NO_HANDLERS;
  private remote: DatagramSource | undefined;
  private closed = false;

  constructor(
    private readonly network: MemoryNetworkImpl,
    local: DatagramSource,
    options: OpenDatagramSocketOptions,
  ) {
    this.address = local.address;
    this.port = local.port;
    this.recvBufferSize = options.recvBufferSize;
    this.reuseAddr = options.reuseAddr ?? false;
    this.broadcast = options.broadcast ?? false;
    this.family = options.family ?? 4;
    this.reportSendErrors = options.reportSendErrors ?? true;
  }

  /** Copies the datagram into the network, so the caller's bytes are always free again: returns true. */
  send(datagram: Uint8Array, port?: number, address?: string, done?: (error: Error | null) => void): boolean {
    if (this.closed) return true;
    let to = this.remote;
    if (port !== undefined) {
      const resolved = resolveHost(address ?? '127.0.0.1');
      if (resolved === undefined) return this.fail(lookupError(address ?? ''), done);
      if (isIP(resolved) !== this.family) return this.fail(familyError(resolved), done);
      to = { address: resolved, port };
    }
    if (!to) throw new Error('send without a port on a socket that is not connected');
    if (!this.broadcast && this.network.isBroadcast(to.address)) return this.fail(accessError(to.address), done);
    this.network.send(this, datagram, to, done);
    return true;
  }

  /** Reports a send that could not leave, later, as `dgram` does. */
  private fail(error: Error, done: ((error: Error | null) => void) | undefined): boolean {
    setImmediate(() => {
      if (this.reportSendErrors || done) this.handlers.sendError(error);
      done?.(error);
    });
    return true;
  }

  listen(handlers: DatagramHandlers): void {
    if (this.handlers !== NO_HANDLERS) throw new Error('listen() was already called on this socket');
    this.handlers = handlers;
  }

  async connect(port: number, host: string): Promise<DatagramSource> {
    await Promise.resolve();
    const address = resolveHost(host);
    if (address === undefined) throw lookupError(host);
    if (isIP(address) !== this.family) throw familyError(address);
    if (this.closed) throw new Error('socket is closed');
    if (this.remote) throw Object.assign(new Error('socket is already connected'), { code: 'EISCONN' });
    this.remote = { address, port };
    return this.remote;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.network.unbind(this);
    await Promise.resolve();
  }

  /** Whether a datagram from `from` reaches this socket: open, and from its remote when connected. */
  accepts(from: DatagramSource): boolean {
    if (this.closed) return false;
    return !this.remote || (this.remote.address === from.address && this.remote.port === from.port);
  }

  receive(datagram: Uint8Array, from: DatagramSource): void {
    this.handlers.message(datagram, from);
  }

  isConnectedTo(to: DatagramSource): boolean {
    return !this.closed && this.remote?.address === to.address && this.remote.port === to.port;
  }

  /** What Linux reports on a connected UDP socket after an ICMP "port unreachable". */
  refused(): void {
    this.handlers.error(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
  }
}

/** An IP literal as is, `localhost` as 127.0.0.1; the memory network has no name service. */
function resolveHost(host: string): string | undefined {
  if (host === 'localhost') return '127.0.0.1';
  return isIP(host) !== 0 ? host : undefined;
}

/** What `dgram` reports for an address of the other IP version than the socket's. */
function familyError(host: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`send EINVAL ${host}`), { code: 'EINVAL' });
}

/** What `dgram` reports for a broadcast from a socket without the broadcast flag. */
function accessError(host: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`send EACCES ${host}`), { code: 'EACCES' });
}

function lookupError(host: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
}
