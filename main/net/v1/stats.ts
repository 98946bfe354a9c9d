/** Why an incoming datagram was dropped before reaching a connection. */
export const DropReason = {
  TOO_SHORT: 'too-short',
  TOO_LONG: 'too-long',
  UNKNOWN_CHANNEL: 'unknown-channel',
  BAD_TOKEN: 'bad-token',
  UNKNOWN_SOURCE: 'unknown-source',
  BAD_BODY: 'bad-body',
  BAD_TYPE: 'bad-type',
  OUT_OF_WINDOW: 'out-of-window',
  FULL: 'server-full',
  INBOX_FULL: 'inbox-full',
  /** UNRELIABLE_SEQUENCED message older than the newest delivered. */
  STALE: 'stale',
  /** Unreliable fragment that cannot be reassembled (bad count, over budget). */
  BAD_FRAGMENT: 'bad-fragment',
  /** A native datagram whose tag does not match (forged, damaged, or under another key). */
  BAD_TAG: 'bad-tag',
  /** A native datagram with a packet number already received, or too old to tell: a replay. */
  REPLAYED: 'replayed',
  /** A datagram of the other protocol than the peer negotiated. */
  WRONG_PROTOCOL: 'wrong-protocol',
  /** A connect request from an address over its own connect limit (see ConnectLimits.perSource). */
  SOURCE_LIMITED: 'source-limited',
  /** A connect request from a /24 (IPv6: /64) over its connect limit (see ConnectLimits.perPrefix). */
  PREFIX_LIMITED: 'prefix-limited',
} as const;

/** One of the {@link DropReason} strings. */
export type DropReason = (typeof DropReason)[keyof typeof DropReason];

/** Counters kept per connection and per endpoint; all only ever grow. */
export class TrafficCounters {
  datagramsSent = 0;
  datagramsReceived = 0;
  bytesSent = 0;
  bytesReceived = 0;
  messagesDelivered = 0;
  retransmits = 0;
  /** Retransmissions found unneeded: the acknowledgement was for an earlier transmission (native only). */
  spuriousRetransmits = 0;
  /** Bytes of redundant copies of retransmitted units, beyond the retransmissions themselves (native only). */
  redundancyBytes = 0;
  duplicatesReceived = 0;
  acksSent = 0;
  /** Sends the OS refused (unreachable, buffer full…). */
  sendErrors = 0;
  /** Datagrams dropped as malformed or unwanted, by reason. */
  readonly dropped: Record<DropReason, number> = Object.fromEntries(
    Object.values(DropReason).map((r) => [r, 0]),
  ) as Record<DropReason, number>;

  private droppedCount = 0;

  /** Total datagrams dropped, all reasons (kept as they happen: stats() reads it, and a game may poll that per frame). */
  get droppedTotal(): number {
    return this.droppedCount;
  }

  /** Counts one datagram of `bytes` handed to the socket (or, on a connection, to its owner). */
  countSent(bytes: number): void {
    this.datagramsSent += 1;
    this.bytesSent += bytes;
  }

  /** Counts one datagram of `bytes` that arrived, before any check. */
  countReceived(bytes: number): void {
    this.datagramsReceived += 1;
    this.bytesReceived += bytes;
  }

  /** Counts one dropped datagram. */
  drop(reason: DropReason): void {
    this.dropped[reason] += 1;
    this.droppedCount += 1;
  }
}
