import type { DatagramHandlers, DatagramSocket, DatagramSource } from '../endpoint/datagramSocket';

/** The two ends of a path that carries datagrams to exactly one peer (an ICE pair, a secured channel). */
export interface PointToPointLink {
  /** Sends one datagram to the peer; may copy later, so the caller hands over a buffer it will not reuse. */
  send(datagram: Uint8Array): Promise<void>;
  /** Subscribes to what arrives; returns the unsubscribe function. */
  subscribe(receive: (datagram: Uint8Array) => void): () => void;
  /** Where datagrams leave from, and who the peer is (labels for logs and the Server's per-source state). */
  local(): DatagramSource;
  remote(): DatagramSource;
  close(): Promise<void>;
}

/**
 * A {@link DatagramSocket} over a {@link PointToPointLink}: every send goes to the one peer whatever address
 * it names, and every datagram is reported as coming from `link.remote()` (stable once the path is set up:
 * hand the socket to a Server or Client after the ICE session connected). `connect` ignores its target
 * (the path was fixed by ICE) and resolves with that label, so a Client's `connect(host, port)` just works.
 * It does not authenticate anything: on an internet path wrap the link in a secure socket.
 */
export class PointToPointSocket implements DatagramSocket {
  readonly recvBufferSize = 0;
  readonly sendBufferSize = 0;
  private handlers: DatagramHandlers | undefined;
  private unsubscribe: (() => void) | undefined;
  private closed: Promise<void> | undefined;

  constructor(private readonly link: PointToPointLink) {}

  get address(): string {
    return this.link.local().address;
  }

  get port(): number {
    return this.link.local().port;
  }

  send(datagram: Uint8Array): boolean {
    if (this.closed) return true;
    // The link may read the bytes after we return (dgram does), so it gets its own copy.
    const copy = Buffer.from(datagram);
    this.link.send(copy).catch((error: unknown) => this.handlers?.sendError(asError(error)));
    return true;
  }

  listen(handlers: DatagramHandlers): void {
    if (this.handlers) throw new Error('listen() was already called on this socket');
    this.handlers = handlers;
    this.unsubscribe = this.link.subscribe((datagram) => {
      if (!this.closed) handlers.message(datagram, this.link.remote());
    });
  }

  connect(): Promise<DatagramSource> {
    return Promise.resolve(this.link.remote());
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      this.unsubscribe?.();
      await this.link.close().catch(() => undefined);
    })();
    return this.closed;
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
