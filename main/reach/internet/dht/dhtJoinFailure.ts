/** Why a guest's connect through the DHT failed, as the player is told it. */
export type DhtJoinFailure =
  /** Both NATs pick a new port per destination (or the punch was aborted): no direct path exists. */
  | 'relay-needed'
  /** No one listens on the room's key: the room is closed, or its host went offline. */
  | 'not-found'
  /** The host was found but every try to connect failed (its network refused, a firewall). */
  | 'unreachable'
  /** Nothing came back in time (no bootstrap node answered, or the punch never finished). */
  | 'timeout';

/** hyperdht's error codes (lib/errors.js) that mean no direct path can be punched between the two networks. */
const RELAY_NEEDED_CODES: ReadonlySet<string> = new Set([
  'HOLEPUNCH_DOUBLE_RANDOMIZED_NATS',
  'HOLEPUNCH_ABORTED',
  'HOLEPUNCH_PROBE_TIMEOUT',
  'CANNOT_HOLEPUNCH',
  'REMOTE_NOT_HOLEPUNCHABLE',
  'REMOTE_NOT_HOLEPUNCHING',
]);

/** A connect's failure typed from hyperdht's error (its `code`); anything unknown counts as unreachable. */
export function dhtJoinFailureOf(error: unknown): DhtJoinFailure {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code !== 'string') return 'unreachable';
  if (RELAY_NEEDED_CODES.has(code)) return 'relay-needed';
  if (code === 'PEER_NOT_FOUND') return 'not-found';
  if (code === 'REQUEST_TIMEOUT') return 'timeout';
  return 'unreachable';
}

/**
 * The failure in the player's words, with what to do; `rendezvous` says whether this player has a rendezvous
 * server set (its relay can carry what the DHT cannot).
 */
export function dhtJoinFailureText(failure: DhtJoinFailure, rendezvous: boolean): string {
  switch (failure) {
    case 'relay-needed':
      return (
        'Your two networks cannot reach each other directly: a relay is needed. ' +
        (rendezvous
          ? 'Ask the host to open the room with the rendezvous server (Settings → Internet rooms on both sides): its relay carries the game.'
          : 'Set up a rendezvous server with a relay (see the README) in Settings → Internet rooms on both sides, or play over a VPN.')
      );
    case 'not-found':
      return 'The room was not found: it may be closed, or its host went offline.';
    case 'unreachable':
      return 'The room was found, but its host could not be reached: a firewall may be in between.';
    case 'timeout':
      return 'The host did not answer in time: the room may be closed, or your networks cannot reach each other.';
  }
}
