import { Listeners } from '../../base/listeners';
import { consoleLogger, type Logger } from '../../base/logger';
import type { DatagramSocket, DatagramSource, OpenDatagramSocket } from '../endpoint/datagramSocket';
import { openUdpDatagramSocket } from '../endpoint/udpSocket';

/** Receives every datagram arriving on a discovery port; `datagram` is only valid during the call. */
export type DiscoveryPortListener = (datagram: Uint8Array, from: DatagramSource) => void;

/** A process's share of the discovery port socket: listen, send, and release when done. */
export interface DiscoveryPortLease {
  /** The bound port (the real one when 0 was asked for). */
  readonly port: number;
  /** The underlying socket, for sending replies and announcements from the discovery port. */
  readonly socket: DatagramSocket;
  /** Adds a listener; returns a function removing it. */
  subscribe(listener: DiscoveryPortListener): () => void;
  /** Gives the lease back; the socket closes when the last lease is released. Idempotent. */
  release(): Promise<void>;
}

interface SharedPort {
  readonly socket: DatagramSocket;
  readonly listeners: Listeners<[Uint8Array, DatagramSource]>;
  leases: number;
  closed: boolean;
  readonly keys: Set<string>;
}

/**
 * Hands out one shared socket per (bind address, port) in this process: responder and browser listen on the
 * same socket because on Windows two sockets sharing a port get data indeterminately. Sockets open through the
 * seam with address reuse (reference servers and other apps share the port) and broadcast. Tests use their own
 * registry instance to stand in for separate processes.
 */
export class DiscoveryPortRegistry {
  private readonly ports = new Map<string, Promise<SharedPort>>();

  constructor(
    private readonly openSocket: OpenDatagramSocket = openUdpDatagramSocket,
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
    this.ports.set(`${bindAddress}:${shared.socket.port}`, pending);
    shared.keys.add(`${bindAddress}:${shared.socket.port}`);
    return this.lease(shared);
  }

  private lease(shared: SharedPort): DiscoveryPortLease {
    // This lease's removers, run on release.
    const own = new Set<() => void>();
    let released = false;
    return {
      port: shared.socket.port,
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
        await shared.socket.close();
      },
    };
  }

  private async bind(port: number, bindAddress: string): Promise<SharedPort> {
    let socket: DatagramSocket;
    try {
      // recvBufferSize 0: the OS default holds plenty of 512-byte adverts.
      socket = await this.openSocket({ port, host: bindAddress, recvBufferSize: 0, reuseAddr: true, broadcast: true });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new Error(`cannot listen for LAN discovery on ${bindAddress}:${port}: ${detail}`, { cause: error });
    }
    const listeners = new Listeners<[Uint8Array, DatagramSource]>((error) =>
      this.logger.warn('discovery listener threw', { error: String(error) }),
    );
    socket.listen({
      message: (datagram, from) => listeners.emit(datagram, from),
      // A send's own failure is reported to its sender (see sendDatagram); the socket stays usable.
      sendError: () => undefined,
      error: (error) => this.logger.warn('discovery socket error', { error: error.message }),
    });
    return { socket, listeners, leases: 0, closed: false, keys: new Set() };
  }
}

/** The registry the app uses: one discovery socket per process and port. */
export const defaultDiscoveryPortRegistry = new DiscoveryPortRegistry();
