import type { Client } from '../../main/net/index';
import type { Link } from '../../main/net/v1/link';
import type { ReliableReceiver } from '../../main/net/v1/reliableReceiver';
import type { ReliableSender } from '../../main/net/v1/reliableSender';

/** Sizes of one connection's per-peer structures, the ones an attacker could try to grow. */
export interface ConnectionSizes {
  /** Held-back or remembered sequences above the floor, per reliable channel. */
  receiverBuffered: number[];
  /** The receivers' limit on how far ahead a sequence may be. */
  receiverWindow: number;
  /** Unacknowledged messages per reliable channel. */
  inFlight: number[];
  /** The senders' window (33 in v1). */
  senderWindow: number;
  /** Messages waiting behind the window, per reliable channel. */
  queued: number[];
  /** Out-of-header acks waiting to be sent. */
  extraAcks: number;
  /** Pings waiting for their pong. */
  pings: number;
  /** Native only: bytes of partial (fragmented) messages, and the most allowed. */
  reassemblyBytes: number;
  reassemblyLimit: number;
}

// The lab reads private state on purpose: bounds on internal structures are what the abuse suites prove, and
// the transport exposes no public view of them. Only this file knows the field names.
interface ConnectionInternals {
  senders: Record<1 | 2, ReliableSender>;
  receivers: Record<1 | 2, ReliableReceiver<unknown>>;
  extraAcks: Record<1 | 2, Set<number>>;
  health: { outstandingPings: number };
}
interface NativeInternals {
  outbox: { senders: Record<1 | 2, ReliableSender> };
  inbox: {
    receivers: Record<1 | 2, ReliableReceiver<unknown>>;
    bufferedBytes: number;
    reassemblers: Record<0 | 1 | 2 | 3, { options: { maxBytes: number } }>;
  };
  health?: { outstandingPings: number };
  pings?: Map<number, number>;
}

/** Reads the sizes of a connection's internal structures (v1 or native). */
export function connectionSizes(connection: Link): ConnectionSizes {
  const channels = [1, 2] as const;
  const native = connection.protocol === 'native' ? (connection as unknown as NativeInternals) : undefined;
  const v1 = connection as unknown as ConnectionInternals;
  const senders = native ? native.outbox.senders : v1.senders;
  const receivers = native ? native.inbox.receivers : v1.receivers;
  return {
    receiverBuffered: channels.map((ch) => receivers[ch].bufferedCount),
    receiverWindow: receivers[1].window,
    inFlight: channels.map((ch) => senders[ch].inFlightCount),
    senderWindow: senders[1].window,
    queued: channels.map((ch) => senders[ch].queuedCount),
    extraAcks: native ? 0 : channels.reduce((n, ch) => n + v1.extraAcks[ch].size, 0),
    pings: native ? (native.health?.outstandingPings ?? native.pings?.size ?? 0) : v1.health.outstandingPings,
    reassemblyBytes: native ? native.inbox.bufferedBytes : 0,
    // One reassembler per channel, each with its own byte budget (the transport sizes them per channel).
    reassemblyLimit: native ? Object.values(native.inbox.reassemblers).reduce((n, r) => n + r.options.maxBytes, 0) : 0,
  };
}

/** The client's current connection, if connected. */
export function clientConnection(client: Client): Link | undefined {
  return (client as unknown as { connection?: Link }).connection;
}

/** Every way `sizes` exceeds the bounds the transport promises; empty when all hold. */
export function boundViolations(sizes: ConnectionSizes, maxQueued: number): string[] {
  const out: string[] = [];
  sizes.receiverBuffered.forEach((n, i) => n > sizes.receiverWindow && out.push(`receiver ${i + 1} holds ${n}`));
  sizes.inFlight.forEach((n, i) => n > sizes.senderWindow && out.push(`sender ${i + 1} has ${n} in flight`));
  sizes.queued.forEach((n, i) => n > maxQueued && out.push(`sender ${i + 1} queues ${n}`));
  if (sizes.extraAcks > 128) out.push(`${sizes.extraAcks} extra acks pending`);
  if (sizes.pings > 16) out.push(`${sizes.pings} pings outstanding`);
  if (sizes.reassemblyBytes > sizes.reassemblyLimit) out.push(`${sizes.reassemblyBytes} bytes in reassembly`);
  return out;
}
