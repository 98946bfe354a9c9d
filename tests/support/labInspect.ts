import type { Client } from '../../main/net/index';
import type { Connection } from '../../main/net/connection';
import type { ReliableReceiver } from '../../main/net/reliableReceiver';
import type { ReliableSender } from '../../main/net/reliableSender';

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
}

// The lab reads private state on purpose: bounds on internal structures are what the abuse suites prove, and
// the transport exposes no public view of them. Only this file knows the field names.
interface ConnectionInternals {
  senders: Record<1 | 2, ReliableSender>;
  receivers: Record<1 | 2, ReliableReceiver<unknown>>;
  extraAcks: Record<1 | 2, Set<number>>;
  pings: Map<number, number>;
}

/** Reads the sizes of a connection's internal structures. */
export function connectionSizes(connection: Connection): ConnectionSizes {
  const c = connection as unknown as ConnectionInternals;
  const channels = [1, 2] as const;
  return {
    receiverBuffered: channels.map((ch) => c.receivers[ch].bufferedCount),
    receiverWindow: c.receivers[1].window,
    inFlight: channels.map((ch) => c.senders[ch].inFlightCount),
    senderWindow: c.senders[1].window,
    queued: channels.map((ch) => c.senders[ch].queuedCount),
    extraAcks: channels.reduce((n, ch) => n + c.extraAcks[ch].size, 0),
    pings: c.pings.size,
  };
}

/** The client's current connection, if connected. */
export function clientConnection(client: Client): Connection | undefined {
  return (client as unknown as { connection?: Connection }).connection;
}

/** Every way `sizes` exceeds the bounds the transport promises; empty when all hold. */
export function boundViolations(sizes: ConnectionSizes, maxQueued: number): string[] {
  const out: string[] = [];
  sizes.receiverBuffered.forEach((n, i) => n > sizes.receiverWindow && out.push(`receiver ${i + 1} holds ${n}`));
  sizes.inFlight.forEach((n, i) => n > sizes.senderWindow && out.push(`sender ${i + 1} has ${n} in flight`));
  sizes.queued.forEach((n, i) => n > maxQueued && out.push(`sender ${i + 1} queues ${n}`));
  if (sizes.extraAcks > 128) out.push(`${sizes.extraAcks} extra acks pending`);
  if (sizes.pings > 16) out.push(`${sizes.pings} pings outstanding`);
  return out;
}
