import { createSocket, type Socket } from 'node:dgram';
import { lookup, type LookupOneOptions } from 'node:dns';
import { isIP } from 'node:net';
import { BindError } from '../errors';
import { sleep, systemScheduler } from '../../base/scheduler';
import type { DatagramHandlers, DatagramSocket, DatagramSource, OpenDatagramSocket } from './datagramSocket';

/** Receive buffer asked of the OS: the default ~208 KiB holds only ~256 small datagrams. */
export const DEFAULT_RECV_BUFFER = 4 * 1024 * 1024;

/** Options for {@link openUdpSocket}. */
export interface OpenSocketOptions {
  port?: number;
  host?: string;
  recvBufferSize?: number;
  /** Send buffer to ask for, bytes; absent or 0 keeps the OS default. */
  sendBufferSize?: number;
  reuseAddr?: boolean;
  broadcast?: boolean;
  /** 6 opens a udp6 socket (default host `::`); default 4. */
  family?: 4 | 6;
}

/** A bound UDP socket and the receive buffer the OS actually granted. */
export interface OpenSocket {
  socket: Socket;
  port: number;
  recvBufferSize: number;
}

/** Binds a UDP socket, raising its buffers (halving on refusal, as macOS refuses above its cap). */
export function openUdpSocket(options: OpenSocketOptions = {}): Promise<OpenSocket> {
  const port = options.port ?? 0;
  const v6 = options.family === 6;
  const host = options.host ?? (v6 ? '::' : '0.0.0.0');
  const type = v6 ? 'udp6' : 'udp4';
  const socket = createSocket({ type, reuseAddr: options.reuseAddr ?? false, lookup: literalFirstLookup });
  literalLookupSockets.add(socket);
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      socket.close();
      reject(new BindError(port, host, err.code, err.message));
    };
    socket.once('error', onError);
    socket.bind(port, host, () => {
      socket.off('error', onError);
      try {
        if (options.broadcast) socket.setBroadcast(true); // only valid once bound
      } catch (error) {
        onError(error as NodeJS.ErrnoException);
        return;
      }
      const granted = raiseRecvBuffer(socket, options.recvBufferSize ?? DEFAULT_RECV_BUFFER);
      if (options.sendBufferSize) raiseBuffer(socket, options.sendBufferSize, 'send');
      resolve({ socket, port: socket.address().port, recvBufferSize: granted });
    });
  });
}

/** Asks for `wanted` bytes of receive buffer, halving on error; returns what the OS reports. */
export function raiseRecvBuffer(socket: Socket, wanted: number): number {
  return raiseBuffer(socket, wanted, 'recv');
}

/** Asks for `wanted` bytes of one buffer, halving on error; returns what the OS reports (0 when unknown). */
function raiseBuffer(socket: Socket, wanted: number, which: 'recv' | 'send'): number {
  for (let size = wanted; size >= 64 * 1024; size = Math.floor(size / 2)) {
    try {
      if (which === 'recv') socket.setRecvBufferSize(size);
      else socket.setSendBufferSize(size);
      break;
    } catch {
      // ENOBUFS above the OS cap: try half.
    }
  }
  try {
    return which === 'recv' ? socket.getRecvBufferSize() : socket.getSendBufferSize();
  } catch {
    return 0;
  }
}

/** Sockets made by {@link openUdpSocket}, which resolve IP literals at once (see {@link literalFirstLookup}). */
const literalLookupSockets = new WeakSet<Socket>();
/** IP literals {@link literalFirstLookup} has seen and their family, at most {@link KNOWN_LITERALS_MAX}. */
const knownLiterals = new Map<string, number>();
const KNOWN_LITERALS_MAX = 4096;
/** Lookups {@link literalFirstLookup} handed to DNS: a send whose lookup went there reads its bytes later. */
let deferredLookups = 0;

/**
 * Answers an IP literal at once and asks DNS for anything else. An unconnected socket looks up the
 * address of every send, and `dns.lookup` defers even a literal to the next tick: a server pays that
 * on each datagram it sends to a peer.
 */
export function literalFirstLookup(
  hostname: string,
  options: LookupOneOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string, family: number) => void,
): void {
  const known = knownLiterals.get(hostname);
  if (known !== undefined) return callback(null, hostname, known);
  const family = isIP(hostname);
  if (family !== 0) {
    // A server sends to the same few addresses all the time: isIP's regular expression on each send cost ~1% of
    // a broadcasting server's CPU. Bounded: an address churn only makes the map start over.
    if (knownLiterals.size >= KNOWN_LITERALS_MAX) knownLiterals.clear();
    knownLiterals.set(hostname, family);
    return callback(null, hostname, family);
  }
  deferredLookups += 1;
  lookup(hostname, options, callback);
}

const IGNORE: DatagramHandlers = { message: () => undefined, sendError: () => undefined, error: () => undefined };

/**
 * The default {@link DatagramSocket}: a bound `dgram` UDP socket. Counts sends the OS has not completed, so a
 * close can wait for them, and tells the caller when its bytes are free again.
 */
export class UdpDatagramSocket implements DatagramSocket {
  private pending = 0;
  private handlers = IGNORE;
  /** One callback for every send: Node reports a send error only to a callback, and drops it without one. */
  private readonly done = (err: Error | null) => {
    this.pending -= 1;
    if (err) this.handlers.sendError(err);
  };

  /** Whether a send to an address can complete before returning: only when its lookup answers at once. */
  private readonly literalLookup: boolean;
  readonly address: string;
  readonly port: number;
  readonly sendBufferSize: number;

  /** Wraps a bound socket; `recvBufferSize` is what the OS granted; `watchSends` false: see `reportSendErrors`. */
  constructor(
    readonly socket: Socket,
    readonly recvBufferSize: number,
    private readonly watchSends = true,
  ) {
    this.literalLookup = literalLookupSockets.has(socket);
    const local = socket.address();
    this.address = local.address;
    this.port = local.port;
    this.sendBufferSize = readSendBufferSize(socket);
    // Always heard: an 'error' event without a listener would end the process.
    socket.on('error', (err) => this.handlers.error(err));
  }

  /** Datagrams handed to the socket whose send has not completed. */
  get inFlight(): number {
    return this.pending;
  }

  /**
   * Sends one datagram, to the connected peer when `port` is omitted. Returns true when the OS took its bytes
   * before returning, so the caller may reuse them: no address lookup deferred the send, and nothing waits in
   * the socket's queue.
   */
  send(datagram: Uint8Array, port?: number, address?: string, done?: (error: Error | null) => void): boolean {
    let callback: ((err: Error | null) => void) | undefined;
    if (done) callback = (err: Error | null) => (this.done(err), done(err));
    else if (this.watchSends) callback = this.done;
    if (callback) this.pending += 1;
    if (port === undefined) {
      this.socket.send(datagram, callback);
    } else {
      const lookups = deferredLookups;
      this.socket.send(datagram, port, address, callback);
      if (!this.literalLookup || deferredLookups !== lookups) return false;
    }
    // A send the OS could not take at once waits in libuv's queue, still reading the caller's bytes.
    return this.socket.getSendQueueCount() === 0;
  }

  /** Hands datagrams straight from the socket's 'message' event to `handlers.message` (no wrapper per datagram). */
  listen(handlers: DatagramHandlers): void {
    if (this.handlers !== IGNORE) throw new Error('listen() was already called on this socket');
    this.handlers = handlers;
    this.socket.on('message', handlers.message);
  }

  /** Connects the socket (the kernel then filters other sources, and sends skip the address lookup). */
  connect(port: number, host: string): Promise<DatagramSource> {
    return new Promise((resolve, reject) =>
      this.socket.connect(port, host, (err?: Error) => (err ? reject(err) : resolve(this.socket.remoteAddress()))),
    );
  }

  /** Closes the socket once sends still on their way (a goodbye, say) have left; waits at most ~200 ms. */
  async close(): Promise<void> {
    for (let i = 0; i < 100 && this.pending > 0; i++) await sleep(2, systemScheduler);
    await new Promise<void>((resolve) => {
      try {
        this.socket.close(() => resolve());
      } catch {
        resolve(); // already closed
      }
    });
  }
}

/** The default {@link OpenDatagramSocket}: binds a UDP socket as {@link openUdpSocket} does. */
export const openUdpDatagramSocket: OpenDatagramSocket = async (options) => {
  const opened = await openUdpSocket(options);
  return new UdpDatagramSocket(opened.socket, opened.recvBufferSize, options.reportSendErrors ?? true);
};

function readSendBufferSize(socket: Socket): number {
  try {
    return socket.getSendBufferSize();
  } catch {
    return 0;
  }
}
