/** Why a connection ended, as the transport knows it: the one closed list the lobby and the seats branch on. */
export type DepartureKind =
  /** Nothing heard for the timeout. */
  | 'timed-out'
  /** A reliable message went unacknowledged through every retry. */
  | 'unacknowledged'
  /** The other side said goodbye (its disconnect notice). */
  | 'closed-by-peer'
  /** Our own disconnect (a kick, a replaced link, leaving). */
  | 'closed-locally'
  /** The server is closing. */
  | 'server-closed'
  /** The peer's reliable send queue overflowed: it stopped keeping up. */
  | 'queue-full'
  /** The other side sent what the protocol cannot carry on with (a message that cannot be reassembled). */
  | 'protocol-error';

/** Whether a connection ended by going silent (no goodbye): the other side may still be there and come back. */
export function linkLost(kind: DepartureKind | undefined): boolean {
  return kind === 'timed-out' || kind === 'unacknowledged';
}

/** Why `Client.connect` gave up. */
export type ConnectFailure =
  /** No accept within the timeout. */
  | 'timed-out'
  /** The host name did not resolve. */
  | 'unresolved'
  /** The socket could not open or connect (the OS said why: the error's `cause`). */
  | 'socket-failed'
  /** `connect` could not start (the client is busy or closed, or a bad port). */
  | 'refused'
  /** Our own `disconnect()` during the attempt. */
  | 'cancelled'
  /** The server's accept is one this build cannot use (another native protocol version, a bad key). */
  | 'incompatible'
  /** The server ended the connection before the handshake finished. */
  | 'dropped';
