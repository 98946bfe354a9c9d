import type { DatagramHandlers, DatagramSocket, DatagramSource } from '../../net/index';
import { ArrivalGaps } from './arrivalGaps';

/**
 * A guest's socket to an internet room whose path can be replaced under it (an ICE restart: new candidates, new
 * keys), so the transport session on top (its peer id, its reliable streams) carries on. Every datagram is
 * reported as coming from the first path's remote, the label the Client connected to; sends go to the current
 * path. The host sees the session's datagrams arrive from a new source and moves the peer there once the
 * session proves it (the native protocol's path challenge).
 */
// On a switch the last datagram sent is sent again over the new path: it went down the dead one, so the host
// has not seen it and, hearing a never-seen datagram of the session from a new source, challenges it and moves
// the peer at once instead of at our next heartbeat (up to a second later). Only a native datagram: the native
// layer accepts each packet number once, so if the host did see it this copy is dropped as a replay, never
// delivered twice (a v1 datagram has no such guard).

/** The first byte of every native datagram (main/net/native/README.md; the net's public API leaves it out). */
export const NATIVE_DATAGRAM_MAGIC = 0xa7;
export class SwitchableSocket implements DatagramSocket {
  readonly recvBufferSize = 0;
  readonly sendBufferSize = 0;
  private handlers: DatagramHandlers | undefined;
  private readonly label: DatagramSource;
  private closed = false;
  private lastHeard: number;
  private readonly gaps: ArrivalGaps;
  private lastSent: Uint8Array | undefined;
  /** Told once, with the time, when the next datagram arrives (the first one over a new path). */
  private heardWaiters: ((at: number) => void)[] = [];
  /** Paths taken over so far (0 before any restart). */
  switches = 0;

  constructor(
    private inner: DatagramSocket,
    /** Where the first path leads (ICE's remote), reported as every datagram's source. */
    remote: DatagramSource,
    private readonly now: () => number,
  ) {
    this.label = { address: remote.address, port: remote.port };
    this.lastHeard = now();
    this.gaps = new ArrivalGaps(this.lastHeard);
  }

  /** The largest gap between two datagrams on the current path lately, ms; undefined until enough came. */
  get largestRecentGap(): number | undefined {
    return this.gaps.largest;
  }

  get address(): string {
    return this.inner.address;
  }

  get port(): number {
    return this.inner.port;
  }

  /** When the current path last delivered a datagram, on the injected clock (its creation before any). */
  get lastHeardAt(): number {
    return this.lastHeard;
  }

  /** Whether the socket was closed (its Client gave up or left): nothing more to keep alive. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Calls `callback` once, with the injected clock's time, when the next datagram arrives on the current path. */
  onNextHeard(callback: (at: number) => void): void {
    this.heardWaiters.push(callback);
  }

  send(datagram: Uint8Array, port?: number, address?: string): boolean {
    if (this.closed) return true;
    this.lastSent = datagram.slice();
    return this.inner.send(datagram, port, address);
  }

  listen(handlers: DatagramHandlers): void {
    if (this.handlers) throw new Error('listen() was already called on this socket');
    this.handlers = handlers;
    this.attach(this.inner);
  }

  connect(): Promise<DatagramSource> {
    return Promise.resolve(this.label);
  }

  /** Moves to a new path (already connected and secured); the old one is closed. Ignored once closed. */
  async switchTo(next: DatagramSocket): Promise<void> {
    if (this.closed) {
      await next.close();
      return;
    }
    const previous = this.inner;
    this.inner = next;
    this.switches += 1;
    this.lastHeard = this.now();
    this.gaps.reset(this.lastHeard);
    if (this.handlers) this.attach(next);
    if (this.lastSent?.[0] === NATIVE_DATAGRAM_MAGIC) next.send(this.lastSent);
    await previous.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.heardWaiters = [];
    await this.inner.close();
  }

  private attach(socket: DatagramSocket): void {
    const handlers = this.handlers!;
    socket.listen({
      // A late datagram of a path already replaced is dropped: only the current path speaks for the room.
      message: (datagram) => {
        if (this.closed || socket !== this.inner) return;
        this.lastHeard = this.now();
        this.gaps.heard(this.lastHeard);
        if (this.heardWaiters.length > 0) for (const told of this.heardWaiters.splice(0)) told(this.lastHeard);
        handlers.message(datagram, this.label);
      },
      sendError: (error) => {
        if (socket === this.inner) handlers.sendError(error);
      },
      error: (error) => {
        if (socket === this.inner) handlers.error(error);
      },
    });
  }
}
