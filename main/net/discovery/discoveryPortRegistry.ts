import dgram, { type RemoteInfo, type Socket } from 'node:dgram';
import { Listeners } from '../../base/listeners';
import { consoleLogger, type Logger } from '../../base/logger';

/** Receives every datagram arriving on a discovery port. */
export type DiscoveryPortListener = (datagram: Buffer, from: RemoteInfo) => void;

/** A process's share of the discovery port socket: listen, send, and release when done. */
export interface DiscoveryPortLease {
  /** The bound port (the real one when 0 was asked for). */
  readonly port: number;
  /** The underlying socket, for sending replies and announcements from the discovery port. */
  readonly socket: Socket;
  /** Adds a listener; returns a function removing it. */
  subscribe(listener: DiscoveryPortListener): () => void;
  /** Gives the lease back; the socket closes when the last lease is released. Idempotent. */
  release(): Promise<void>;
}

interface SharedPort {
  readonly socket: Socket;
  readonly port: number;
  readonly listeners: Listeners<[Buffer, RemoteInfo]>;
  leases: number;
  closed: boolean;
  readonly keys: Set<string>;
}

/** Creates the udp4 socket with address reuse, so reference servers and other apps can share the port. */
export function createReusableUdp4Socket(): Socket {
  return dgram.createSocket({ type: 'udp4', reuseAddr: true });
}

/**
 * Hands out one shared socket per (bind address, port) in this process: responder and browser listen on the
 * same socket because on Windows two sockets sharing a port get data indeterminately. Tests use their own
 * registry instance to stand in for separate processes.
 */
export class DiscoveryPortRegistry {
  private readonly ports = new Map<string, Promise<SharedPort>>();

  constructor(
    private readonly createSocket: () => Socket = createReusableUdp4Socket,
    private readonly logger: Logger = consoleLogger('lan-discovery'),
  ) {}

  /** Binds (or reuses) the socket for `bindAddress:port`; port 0 always binds a fresh ephemeral port. */
  async acquire(port: number, bindAddress = '0.0.0.0'): Promise<DiscoveryPortLease> {
    const key = `${bindAddress}:${port}`;
    let pending = port === 0 ? undefined : this.ports.get(key);
    if (!pending) {
      pending = this.bind(port, bindAddress);
      if (port !== 0) this.ports.set(key, pending);
      pending.catch(() => this.ports.delete(key));
    }
    const shared = await pending;
    // Lost a race with the last release: that socket is closing, bind a new one.
    if (shared.closed) return this.acquire(port, bindAddress);
    shared.leases += 1;
    shared.keys.add(key);
    this.ports.set(`${bindAddress}:${shared.port}`, pending);
    shared.keys.add(`${bindAddress}:${shared.port}`);
    return this.lease(shared);
  }

  private lease(shared: SharedPort): DiscoveryPortLease {
    // This lease's removers, run on release.
    const own = new Set<() => void>();
    let released = false;
    return {
      port: shared.port,
      socket: shared.socket,
      subscribe: (listener) => {
        // Wrapped, so one listener subscribed through two leases is two registrations, each released with its lease.
        const remove = shared.listeners.add((datagram, from) => listener(datagram, from));
        own.add(remove);
        return () => {
          own.delete(remove);
          remove();
        };
      },
      release: async () => {
        if (released) return;
        released = true;
        for (const remove of own) remove();
        own.clear();
        shared.leases -= 1;
        if (shared.leases > 0) return;
        shared.closed = true;
        for (const key of shared.keys) this.ports.delete(key);
        await new Promise<void>((resolve) => {
          try {
            shared.socket.close(() => resolve());
          } catch {
            resolve();
          }
        });
      },
    };
  }

  private bind(port: number, bindAddress: string): Promise<SharedPort> {
    const socket = this.createSocket();
    const listeners = new Listeners<[Buffer, RemoteInfo]>((error) =>
      this.logger.warn('discovery listener threw', { error: String(error) }),
    );
    return new Promise<SharedPort>((resolve, reject) => {
      const onBindError = (error: Error) => {
        try {
          socket.close();
        } catch {
          // Already closed: nothing to release.
        }
        reject(
          new Error(`cannot listen for LAN discovery on ${bindAddress}:${port}: ${error.message}`, { cause: error }),
        );
      };
      socket.once('error', onBindError);
      socket.on('message', (datagram, from) => listeners.emit(datagram, from));
      socket.bind(port, bindAddress, () => {
        socket.off('error', onBindError);
        socket.on('error', (error) => this.logger.warn('discovery socket error', { error: error.message }));
        try {
          // Only valid once bound; without it Linux and macOS refuse every broadcast send with EACCES.
          socket.setBroadcast(true);
        } catch (error) {
          this.logger.warn('setBroadcast failed on the discovery socket', { error: String(error) });
        }
        resolve({ socket, port: socket.address().port, listeners, leases: 0, closed: false, keys: new Set() });
      });
    });
  }
}

/** The registry the app uses: one discovery socket per process and port. */
export const defaultDiscoveryPortRegistry = new DiscoveryPortRegistry();
