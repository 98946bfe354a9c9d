import { createSocket, type Socket, type SocketOptions } from 'node:dgram';

const BUFFER_BYTES = 1 << 20;

/** A UDP socket for the relay: large buffers for bursts, and no DNS on send (every address is an IP literal). */
export function createRelaySocket(family: 'IPv4' | 'IPv6'): Socket {
  const type = family === 'IPv6' ? 'udp6' : 'udp4';
  // Node's default lookup defers every send to a later tick; an IP literal needs no resolving at all.
  const lookup = (host: string, _options: unknown, callback: (err: null, address: string, family: number) => void) =>
    callback(null, host, family === 'IPv6' ? 6 : 4);
  return createSocket({
    type,
    lookup: lookup as SocketOptions['lookup'],
    recvBufferSize: BUFFER_BYTES,
    sendBufferSize: BUFFER_BYTES,
  });
}

/** Binds a socket and resolves when it listens; rejects (and closes it) on a bind error such as EADDRINUSE. */
export async function bindRelaySocket(socket: Socket, port: number, address: string): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, address, () => {
        socket.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    socket.close();
    throw error;
  }
}
