/** Where a datagram came from, or where a connected socket sends: an address and a port. */
export interface DatagramSource {
  readonly address: string;
  readonly port: number;
}

/** Where a {@link DatagramSocket} reports what arrives and what fails. */
export interface DatagramHandlers {
  /** One received datagram; `datagram` may be reused by the socket once this returns, `from` may not be kept. */
  message(datagram: Uint8Array, from: DatagramSource): void;
  /** A send the path refused (unreachable, too large…); the datagram is lost, the socket stays usable. */
  sendError(error: Error): void;
  /** A socket-level error outside any send (a late ICMP "port unreachable", say); never fatal. */
  error(error: NodeJS.ErrnoException): void;
}

/**
 * The path Server and Client move datagrams over: a `dgram` UDP socket by default (see
 * `openUdpDatagramSocket`), an in-memory link in tests (`createMemoryNetwork`), another transport later.
 * Delivers asynchronously, never from inside `send`, as UDP does.
 */
export interface DatagramSocket {
  /** The local address datagrams leave from (a `dgram` socket bound to every interface says 0.0.0.0). */
  readonly address: string;
  /** The local port. */
  readonly port: number;
  /** Receive buffer granted, bytes (0 when unknown): sizes the receive window a native peer may fill. */
  readonly recvBufferSize: number;
  /** Send buffer granted, bytes (0 when unknown or unbounded). */
  readonly sendBufferSize: number;
  /**
   * Sends one datagram to `address:port`, or to the connected remote when `port` is omitted. Returns true
   * when the bytes were taken before returning, so the caller may reuse its buffer; false when the socket
   * still reads them (the caller must not touch them). `done`, when given, hears how this one send ended (its error,
   * or null): a caller that must tell which destination failed (discovery) asks for it; hot paths do not.
   */
  send(datagram: Uint8Array, port?: number, address?: string, done?: (error: Error | null) => void): boolean;
  /** Sets where datagrams and errors go; call once, before anything can arrive (right after opening). */
  listen(handlers: DatagramHandlers): void;
  /**
   * Fixes the remote: later sends without a port go to it, and datagrams from anyone else are discarded.
   * Resolves with the remote's address (a host name resolved); rejects with the lookup's error.
   */
  connect(port: number, host: string): Promise<DatagramSource>;
  /** Closes once the sends still on their way (a goodbye, say) have left; waits briefly, never throws. */
  close(): Promise<void>;
}

/** What an endpoint asks of a new socket. */
export interface OpenDatagramSocketOptions {
  /** Local port; 0 picks a free one. */
  port: number;
  /** Local address; 0.0.0.0 listens on every interface. */
  host: string;
  /** Receive buffer to ask for, bytes; 0 keeps the OS default. */
  recvBufferSize: number;
  /** Send buffer to ask for, bytes (a relay's bursts); 0 or absent keeps the OS default. */
  sendBufferSize?: number;
  /** IP version of the socket; default 4 (`host` and every address it sends to are then of that family). */
  family?: 4 | 6;
  /**
   * False: a send without `done` goes unwatched, its failure unheard and close() not waiting for it. On UDP each
   * watched send costs a completion callback that Node defers to its own tick: a relay's hot path skips it. Default true.
   */
  reportSendErrors?: boolean;
  /** Share the port with other sockets that ask for reuse too (the discovery port, shared between programs). */
  reuseAddr?: boolean;
  /** Allow sends to broadcast addresses (without it they fail with EACCES, as a `dgram` socket's do). */
  broadcast?: boolean;
}

/** Opens (binds) a socket; rejects with a BindError naming a busy or forbidden port. */
export type OpenDatagramSocket = (options: OpenDatagramSocketOptions) => Promise<DatagramSocket>;
