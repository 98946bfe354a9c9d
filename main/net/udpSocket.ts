import { createSocket, type Socket } from 'node:dgram';
import { BindError } from './errors';

/** Receive buffer asked of the OS: the default ~208 KiB holds only ~256 small datagrams. */
export const DEFAULT_RECV_BUFFER = 4 * 1024 * 1024;

/** Options for {@link openUdpSocket}. */
export interface OpenSocketOptions {
  port?: number;
  host?: string;
  recvBufferSize?: number;
  reuseAddr?: boolean;
}

/** A bound udp4 socket and the receive buffer the OS actually granted. */
export interface OpenSocket {
  socket: Socket;
  port: number;
  recvBufferSize: number;
}

/** Binds a udp4 socket, raising the receive buffer (halving on refusal, as macOS refuses above its cap). */
export function openUdpSocket(options: OpenSocketOptions = {}): Promise<OpenSocket> {
  const port = options.port ?? 0;
  const host = options.host ?? '0.0.0.0';
  const socket = createSocket({ type: 'udp4', reuseAddr: options.reuseAddr ?? false });
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      socket.close();
      reject(new BindError(port, host, err.code, err.message));
    };
    socket.once('error', onError);
    socket.bind(port, host, () => {
      socket.off('error', onError);
      const granted = raiseRecvBuffer(socket, options.recvBufferSize ?? DEFAULT_RECV_BUFFER);
      resolve({ socket, port: socket.address().port, recvBufferSize: granted });
    });
  });
}

/** Asks for `wanted` bytes of receive buffer, halving on error; returns what the OS reports. */
export function raiseRecvBuffer(socket: Socket, wanted: number): number {
  for (let size = wanted; size >= 64 * 1024; size = Math.floor(size / 2)) {
    try {
      socket.setRecvBufferSize(size);
      break;
    } catch {
      // ENOBUFS above the OS cap: try half.
    }
  }
  try {
    return socket.getRecvBufferSize();
  } catch {
    return 0;
  }
}

const pendingSends = new WeakMap<Socket, number>();

/** Sends one datagram (to the connected peer when `port` is omitted), counting it until the OS takes it. */
export function trackedSend(
  socket: Socket,
  datagram: Uint8Array,
  onError: () => void,
  port?: number,
  address?: string,
): void {
  pendingSends.set(socket, (pendingSends.get(socket) ?? 0) + 1);
  const done = (err: Error | null) => {
    pendingSends.set(socket, (pendingSends.get(socket) ?? 1) - 1);
    if (err) onError();
  };
  if (port === undefined) socket.send(datagram, done);
  else socket.send(datagram, port, address, done);
}

/** Closes the socket once sends still on their way (a goodbye, say) have left; waits at most ~200 ms. */
export async function closeWhenDrained(socket: Socket): Promise<void> {
  for (let i = 0; i < 100 && (pendingSends.get(socket) ?? 0) > 0; i++) await new Promise((r) => setTimeout(r, 2));
  await new Promise<void>((resolve) => {
    try {
      socket.close(() => resolve());
    } catch {
      resolve(); // already closed
    }
  });
}
