import type { DatagramSocket, DatagramSource, OpenDatagramSocket } from '../../main/net/endpoint/datagramSocket';

/**
 * A NAT router on a memory network: a client connects to its inside address, and it forwards to `target` from an
 * outside socket; `rebind` moves the mapping to a new outside address and port (as a NAT that lost its mapping, or
 * a laptop on a new network), and the old one stops existing. Datagrams can be held back or watched on the way.
 */
export interface MemoryNat {
  /** Where the client connects. */
  readonly inside: DatagramSource;
  /** The address the server sees the client at now. */
  readonly outside: DatagramSource;
  /** Client → server datagrams as forwarded (copies), newest last. */
  readonly upstream: Uint8Array[];
  /** When set and true for a client → server datagram, it is kept back (not forwarded). */
  hold: ((datagram: Uint8Array) => boolean) | undefined;
  /** Datagrams kept back by {@link hold}. */
  readonly held: Uint8Array[];
  /** Moves the mapping to `address` (a fresh port); the old outside socket closes. */
  rebind(address: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts a NAT whose inside listens at `insideAddress` and whose first mapping is on `outsideAddress`. */
export async function startMemoryNat(
  openSocket: OpenDatagramSocket,
  target: DatagramSource,
  insideAddress: string,
  outsideAddress: string,
): Promise<MemoryNat> {
  const inside = await openSocket({ port: 0, host: insideAddress, recvBufferSize: 0 });
  let client: DatagramSource | undefined;
  let outside: DatagramSocket;
  const open = async (address: string) => {
    const socket = await openSocket({ port: 0, host: address, recvBufferSize: 0 });
    socket.listen({
      message: (data, from) => {
        if (socket !== outside || from.address !== target.address || from.port !== target.port || !client) return;
        inside.send(data, client.port, client.address);
      },
      sendError: () => undefined,
      error: () => undefined,
    });
    return socket;
  };
  outside = await open(outsideAddress);
  const nat: MemoryNat = {
    inside: { address: inside.address, port: inside.port },
    get outside() {
      return { address: outside.address, port: outside.port };
    },
    upstream: [],
    hold: undefined,
    held: [],
    async rebind(address) {
      const old = outside;
      outside = await open(address);
      await old.close();
    },
    async close() {
      await Promise.all([inside.close(), outside.close()]);
    },
  };
  inside.listen({
    message: (data, from) => {
      client = { address: from.address, port: from.port };
      const copy = Uint8Array.from(data);
      if (nat.hold?.(copy)) {
        nat.held.push(copy);
        return;
      }
      nat.upstream.push(copy);
      outside.send(copy, target.port, target.address);
    },
    sendError: () => undefined,
    error: () => undefined,
  });
  return nat;
}
