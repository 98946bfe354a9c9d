/** Why a connection ended, as the transport knows it: the one closed list the lobby and the seats branch on. */
export type DepartureKind =
  | 'timed-out' // nothing heard for the timeout
  | 'unacknowledged' // a reliable message went unacknowledged through every retry
  | 'closed-by-peer' // the other side's disconnect notice
  | 'closed-locally' // our own disconnect (a kick, a replaced link, leaving)
  | 'server-closed' // the server is closing
  | 'queue-full' // the peer's reliable send queue overflowed: it stopped keeping up
  | 'protocol-error'; // the other side sent what the protocol cannot carry on with (an unreassemblable message)

/** Whether a connection ended by going silent (no goodbye): the other side may still be there and come back. */
export function linkLost(kind: DepartureKind | undefined): boolean {
  return kind === 'timed-out' || kind === 'unacknowledged';
}

/** Why `Client.connect` gave up. */
export type ConnectFailure =
  | 'timed-out' // no accept within the timeout
  | 'unresolved' // the host name did not resolve
  | 'socket-failed' // the socket could not open or connect (the error's `cause` says why)
  | 'refused' // `connect` could not start: the client is busy or closed, or a bad port
  | 'cancelled' // our own `disconnect()` during the attempt
  | 'incompatible' // an accept this build cannot use (another native protocol version, a bad key)
  | 'dropped'; // the server ended the connection before the handshake finished
