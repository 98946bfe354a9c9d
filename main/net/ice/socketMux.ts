import type { DatagramHandlers, DatagramSocket, DatagramSource } from '../endpoint/datagramSocket';

/** One server socket fed by many point-to-point sockets (one ICE session, secured, per guest). */
export interface SocketMux {
  /** Pass to `Server.listen({ openSocket: async () => this.socket })`. */
  readonly socket: DatagramSocket;
  /**
   * Adds a guest's connected socket and returns the synthetic source (100.64.x.y:p, the shared address
   * range of RFC 6598, never reused while this mux lives) the Server will see that guest's datagrams come from.
   * Guests given the same `origin` (the ICE remote candidate's IP) share one synthetic address, each on its
   * own port below 1024, so what the Server keys on an address (a password backoff) is keyed on the origin;
   * past port 1023 the ports of guests gone longest are handed out again, so the origin keeps its address.
   */
  add(guest: DatagramSocket, origin?: string): DatagramSource;
  /** Removes a guest (after the Server dropped it) and closes its socket. */
  remove(source: DatagramSource): Promise<void>;
  /** Guests currently attached. */
  readonly size: number;
}

const SYNTHETIC_PORT = 1;
/** Ports a synthetic address gives guests from one origin: privileged, so no real UDP peer has them. */
const MAX_SYNTHETIC_PORT = 1023;
// 100.64.0.0/10 holds 2^22 addresses; 0 is left out.
const MAX_LABELS = 2 ** 22 - 1;

/**
 * A Server binds one socket but an internet host needs one ICE session per guest: the mux labels each guest
 * socket with its own synthetic address, routes the Server's sends by that address, and reports each guest's
 * datagrams as coming from it, so Server's per-peer state works unchanged. With a `base` socket (the room's UDP
 * socket) LAN guests keep arriving on it and every send to an address no ICE guest holds goes out through it, so
 * one Server serves both; a label is checked first, and a real UDP peer at 100.64.x.y:1 (a privileged source
 * port no client uses) is the only thing it could shadow.
 */
export function createSocketMux(base?: DatagramSocket): SocketMux {
  return new SocketMuxImpl(base);
}

class SocketMuxImpl implements SocketMux {
  readonly socket: DatagramSocket;
  private readonly guests = new Map<string, DatagramSocket>();
  private handlers: DatagramHandlers | undefined;
  private next = 1;
  /** Origin (ICE remote IP) → its synthetic address and the next port there. */
  private readonly origins = new Map<string, { address: string; nextPort: number }>();
  private closed = false;

  constructor(private readonly base: DatagramSocket | undefined) {
    this.socket = {
      address: base?.address ?? '100.64.0.0',
      port: base?.port ?? SYNTHETIC_PORT,
      recvBufferSize: base?.recvBufferSize ?? 0,
      sendBufferSize: base?.sendBufferSize ?? 0,
      send: (datagram, port, address) => {
        const guest = port !== undefined && address !== undefined ? this.guests.get(key(address, port)) : undefined;
        // A label of a guest that left must not leak out of the UDP socket to a real 100.64/10 address.
        if (!guest && base && !((port ?? 0) <= MAX_SYNTHETIC_PORT && isLabel(address)))
          return base.send(datagram, port, address);
        if (!guest) {
          // As UDP to nobody: lost, reported, never thrown (the guest may just have been removed).
          queueMicrotask(() => this.handlers?.sendError(new Error(`no guest at ${address}:${port} on this mux`)));
          return true;
        }
        return guest.send(datagram);
      },
      listen: (handlers) => {
        if (this.handlers) throw new Error('listen() was already called on this mux');
        this.handlers = handlers;
        base?.listen(handlers);
      },
      connect: () => {
        return Promise.reject(new Error('a socket mux serves many guests: it cannot connect to one'));
      },
      close: async () => {
        this.closed = true;
        const all = [...this.guests.values()];
        this.guests.clear();
        await Promise.all([...all.map((guest) => guest.close()), this.base?.close()]);
      },
    };
  }

  get size(): number {
    return this.guests.size;
  }

  add(guest: DatagramSocket, origin?: string): DatagramSource {
    if (this.closed) throw new Error('the socket mux is closed');
    const known = origin === undefined ? undefined : this.origins.get(origin);
    let source: DatagramSource;
    const port = known && this.freePort(known);
    if (known && port !== undefined) {
      source = { address: known.address, port };
    } else {
      if (this.next > MAX_LABELS) throw new RangeError('the socket mux ran out of synthetic addresses');
      const n = this.next++;
      source = { address: `100.${64 + ((n >> 16) & 63)}.${(n >> 8) & 255}.${n & 255}`, port: SYNTHETIC_PORT };
      if (origin !== undefined) this.origins.set(origin, { address: source.address, nextPort: SYNTHETIC_PORT + 1 });
    }
    this.guests.set(key(source.address, source.port), guest);
    guest.listen({
      message: (datagram) => {
        if (this.guests.get(key(source.address, source.port)) === guest) this.handlers?.message(datagram, source);
      },
      sendError: (error) => this.handlers?.sendError(error),
      error: (error) => this.handlers?.error(error),
    });
    return source;
  }

  /**
   * The origin's next port no live guest holds, going round 1–1023 (the oldest freed first), or undefined when
   * all 1,023 are live. Round, not a fresh address: an origin's 1,024th join must not start its backoff over.
   */
  private freePort(origin: { address: string; nextPort: number }): number | undefined {
    for (let tried = 0; tried < MAX_SYNTHETIC_PORT; tried += 1) {
      if (origin.nextPort > MAX_SYNTHETIC_PORT) origin.nextPort = SYNTHETIC_PORT;
      const port = origin.nextPort++;
      if (!this.guests.has(key(origin.address, port))) return port;
    }
    return undefined;
  }

  async remove(source: DatagramSource): Promise<void> {
    const k = key(source.address, source.port);
    const guest = this.guests.get(k);
    if (!guest) return;
    this.guests.delete(k);
    await guest.close();
  }
}

// 100.64.0.0/10: the second octet is 64–127.
function isLabel(address: string | undefined): boolean {
  const match = /^100\.(\d{1,3})\./.exec(address ?? '');
  return match !== null && Number(match[1]) >= 64 && Number(match[1]) <= 127;
}

function key(address: string, port: number): string {
  return `${address}:${port}`;
}
