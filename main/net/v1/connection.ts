import { CHANNEL_POLICY, type Channel } from '../../../shared/net/channel';
import { writeHeader, type PacketHeader, type ReceivedHeader } from './header';
import { ReservedType, Wire, isReservedType } from './protocol';
import { ReliableReceiver } from './reliableReceiver';
import { ReliableSender, type InFlight } from './reliableSender';
import type { RttEstimator } from './rttEstimator';
import { ConnectionHealth, type HealthOptions } from './connectionHealth';
import { PayloadTooLargeError } from '../errors';
import type { DecodedMessage, Serializer } from './serialization';
import type { ConnectionStats } from './netStats';
import { DropReason, TrafficCounters } from './stats';
import type { Link, LinkEvents } from './link';
import type { DepartureKind } from '../departure';
import { CHANNEL_OF_V1_WIRE, V1_CONTROL_WIRE, V1_RELIABLE_WIRES, V1_WIRE_OF, V1_WIRE_RELIABLE } from './v1Channels';

/** Tunables of one connection. */
export interface ConnectionOptions extends HealthOptions, LinkEvents {
  serializer: Serializer;
  /** Reliable messages that may wait behind the send window, per channel. */
  maxQueued?: number;
}

// Module-level copies of imported tables: under a CommonJS transpiler (tsx, vitest) each use of an imported
// binding is a getter call, which shows in the per-message profile.
const RELIABLE = V1_RELIABLE_WIRES;
const WIRE_OF = V1_WIRE_OF;
const WIRE_RELIABLE = V1_WIRE_RELIABLE;
const CONTROL = V1_CONTROL_WIRE;
const MAX_EXTRA_ACKS = 64;

/** The channel a v1 header byte arrives as: v1's own channel with that byte. */
const channelOfWire = (wire: number): Channel => CHANNEL_OF_V1_WIRE[wire]! as Channel;

/**
 * The state of one gale.net v1 connection, without sockets: reliability per channel,
 * heartbeats and RTT, timeout detection. The owner feeds it verified datagrams and calls
 * `service` periodically; it transmits through the injected function.
 */
export class Connection implements Link {
  readonly protocol = 'v1' as const;
  /** @internal see Link.queueMarks */
  queueMarks = 0;
  readonly token: bigint;
  readonly counters = new TrafficCounters();
  private readonly health: ConnectionHealth;
  private readonly opts: Required<
    Pick<ConnectionOptions, 'serializer' | 'clock' | 'transmit' | 'onMessage' | 'onClosed'>
  >;
  // Per reliable channel, indexed by its v1 header byte.
  private readonly senders: ReliableSender[] = [];
  private readonly receivers: ReliableReceiver<DecodedMessage>[] = [];
  private readonly ackDirty: boolean[] = [];
  private readonly extraAcks: Set<number>[] = [];
  /** Why it ended, once it has (set by `close`). */
  departure: DepartureKind | undefined;
  private readonly ackBody: Uint8Array;

  constructor(options: ConnectionOptions) {
    this.opts = options;
    this.token = options.token;
    this.health = new ConnectionHealth(options, this.counters);
    for (const wire of RELIABLE) {
      this.senders[wire] = new ReliableSender({ maxQueued: options.maxQueued ?? 65_536 });
      this.receivers[wire] = new ReliableReceiver({ ordered: CHANNEL_POLICY[channelOfWire(wire)]!.ordered });
      this.ackDirty[wire] = false;
      this.extraAcks[wire] = new Set();
    }
    this.ackBody = this.opts.serializer.serialize(ReservedType.ACK, {});
  }

  /** Round-trip time from heartbeats: the reference's smoothed RTT, reported to the application. */
  get rtt(): RttEstimator {
    return this.health.rtt;
  }

  /** RTT, jitter, loss, traffic rates and counters of this connection. */
  stats(): ConnectionStats {
    return this.health.stats(this.pendingReliable);
  }

  /** The body codec of this connection. */
  get serializer(): Serializer {
    return this.opts.serializer;
  }

  /** Whether the connection has ended. */
  get closed(): boolean {
    return this.departure !== undefined;
  }

  /** Reliable messages not yet acknowledged plus those queued behind the window. */
  get pendingReliable(): number {
    let pending = 0;
    for (const wire of RELIABLE) pending += this.senders[wire]!.inFlightCount + this.senders[wire]!.queuedCount;
    return pending;
  }

  /** v1 carries at most 1200 bytes per message, whatever the channel. */
  maxBody(_channel: Channel): number {
    return Wire.MAX_BODY_SIZE;
  }

  /** Serializes and sends one application message; throws on oversize or unserializable payloads. */
  send(type: string, payload: unknown, channel: Channel): void {
    this.sendBody(encodeBody(this.opts.serializer, type, payload), channel);
  }

  /** Sends an already serialized body (so a broadcast serializes once for every peer). */
  sendBody(body: Uint8Array, channel: Channel): void {
    if (this.closed) return;
    // A channel v1 lacks travels as the v1 channel its policy names (UNRELIABLE_SEQUENCED: the peer may see a stale one).
    const wire = WIRE_OF[channel]!;
    if (WIRE_RELIABLE[wire] === 0) {
      this.transmit({ channel: wire, token: this.token, sequence: 0, ack: 0, ackBitfield: 0 }, body);
      return;
    }
    this.senders[wire]!.enqueue(body);
    this.flushSendable(wire, this.opts.clock());
  }

  /** Handles a datagram whose token and source were already checked by the owner. */
  receive(header: ReceivedHeader, message: DecodedMessage, size: number): void {
    if (this.closed) return;
    const now = this.opts.clock();
    this.health.heard(now);
    this.counters.countReceived(size);
    if (WIRE_RELIABLE[header.channel] === 1) this.receiveReliable(header.channel, header, message, now);
    else this.receiveControl(message, now);
  }

  /** Heartbeats, retransmissions, timeout detection and pending acks; call every few milliseconds. */
  service(now: number): void {
    if (this.closed) return;
    const silent = this.health.silence(now);
    if (silent) return this.close(silent, 'timed-out');
    const ping = this.health.tick(now);
    if (ping !== undefined) this.sendControl(ReservedType.PING, { id: ping });
    for (const wire of RELIABLE) {
      const stuck = this.health.stuck(this.senders[wire]!.oldest(), now);
      if (stuck) return this.close(stuck, 'unacknowledged');
      this.retransmitDue(wire, now);
    }
    this.flushAcks();
  }

  private retransmitDue(wire: number, now: number): void {
    const health = this.health;
    const due = this.senders[wire]!.dueForRetransmit(now, health.timeoutFor, health.rto.fastRetransmitInterval());
    for (const entry of due) {
      this.counters.retransmits += 1;
      this.transmitReliable(wire, entry.sequence, entry.body);
    }
  }

  /** Folds in a round-trip sample taken outside the connection (the connect handshake). */
  addRttSample(seconds: number): void {
    this.health.addRttSample(seconds);
  }

  /** Sends bare acks for channels with something new to acknowledge. */
  flushAcks(): void {
    for (const wire of RELIABLE) {
      const receiver = this.receivers[wire]!;
      if (this.ackDirty[wire]) {
        const { ack, bitfield } = receiver.ackHeader();
        this.ackDirty[wire] = false;
        this.sendAck(wire, ack, bitfield);
      }
      const extra = this.extraAcks[wire]!;
      for (const seq of extra) this.sendAck(wire, seq, receiver.bitfieldFor(seq));
      extra.clear();
    }
  }

  /** Ends the connection locally (no datagram sent); `onClosed` fires once. */
  close(reason: string, kind: DepartureKind): void {
    if (this.closed) return;
    this.departure = kind;
    this.opts.onClosed(reason, kind);
  }

  /** Sends `__disconnect__` (a few times: it is unreliable) and closes. */
  disconnect(reason: string, kind: DepartureKind = 'closed-locally'): void {
    if (this.closed) return;
    const body = this.opts.serializer.serialize(ReservedType.DISCONNECT, {});
    for (let i = 0; i < 3; i++)
      this.transmit({ channel: CONTROL, token: this.token, sequence: 0, ack: 0, ackBitfield: 0 }, body);
    this.close(reason, kind);
  }

  private receiveControl(message: DecodedMessage, now: number): void {
    switch (message.type) {
      case ReservedType.PING:
        this.sendControl(ReservedType.PONG, message.payload);
        return;
      case ReservedType.PONG:
        return this.health.pong(message.payload.id, now);
      case ReservedType.DISCONNECT:
        this.close('disconnected by the other side', 'closed-by-peer');
        return;
      default:
        if (isReservedType(message.type)) return; // connect handshakes and stray acks: the owner's concern
        this.deliver(message, channelOfWire(CONTROL));
    }
  }

  /** A datagram on the reliable channel whose header byte is `wire`. */
  private receiveReliable(wire: number, header: ReceivedHeader, message: DecodedMessage, now: number): void {
    const isAck = message.type === ReservedType.ACK;
    // (0, 0) is ambiguous (seq 0 received, or nothing yet): trust it only from a bare ack.
    if (isAck || header.ack !== 0 || header.ackBitfield !== 0) {
      const sample = (entry: InFlight) => this.health.acknowledged(entry, now);
      if (this.senders[wire]!.acknowledge(header.ack, header.ackBitfield, sample) > 0) {
        this.retransmitDue(wire, now);
        this.flushSendable(wire, now);
      }
    }
    if (isAck) return;
    if (isReservedType(message.type)) {
      this.counters.drop(DropReason.BAD_TYPE);
      return;
    }
    const receiver = this.receivers[wire]!;
    const channel = channelOfWire(wire);
    const status = receiver.receive(header.sequence, message, (m) => this.deliver(m, channel));
    if (status === 'out-of-window') {
      this.counters.drop(DropReason.OUT_OF_WINDOW);
      return;
    }
    if (status === 'duplicate') {
      this.counters.duplicatesReceived += 1;
      const extra = this.extraAcks[wire]!;
      if (!receiver.coveredByHeader(header.sequence) && extra.size < MAX_EXTRA_ACKS) {
        extra.add(header.sequence);
        return;
      }
    }
    this.ackDirty[wire] = true;
  }

  private deliver(message: DecodedMessage, channel: Channel): void {
    if (this.closed) return;
    this.counters.messagesDelivered += 1;
    this.opts.onMessage(message.type, message.payload, channel);
  }

  private flushSendable(wire: number, now: number): void {
    for (const entry of this.senders[wire]!.takeSendable(now)) this.transmitReliable(wire, entry.sequence, entry.body);
  }

  private transmitReliable(wire: number, sequence: number, body: Uint8Array): void {
    const { ack, bitfield } = this.receivers[wire]!.ackHeader();
    this.ackDirty[wire] = false;
    this.transmit({ channel: wire, token: this.token, sequence, ack, ackBitfield: bitfield }, body);
  }

  private sendAck(wire: number, ack: number, bitfield: number): void {
    this.counters.acksSent += 1;
    this.transmit({ channel: wire, token: this.token, sequence: 0, ack, ackBitfield: bitfield }, this.ackBody);
  }

  private sendControl(type: string, payload: unknown): void {
    this.transmit(
      { channel: CONTROL, token: this.token, sequence: 0, ack: 0, ackBitfield: 0 },
      this.opts.serializer.serialize(type, payload),
    );
  }

  private transmit(header: PacketHeader, body: Uint8Array): void {
    const datagram = new Uint8Array(Wire.HEADER_SIZE + body.length);
    writeHeader(datagram, header);
    datagram.set(body, Wire.HEADER_SIZE);
    this.counters.countSent(datagram.length);
    this.opts.transmit(datagram);
  }
}

/** Serializes an application message and enforces a body limit (v1's 1200 bytes unless told). */
export function encodeBody(
  serializer: Serializer,
  type: string,
  payload: unknown,
  limit: number = Wire.MAX_BODY_SIZE,
): Uint8Array {
  if (isReservedType(type)) throw new TypeError(`"${type}" is reserved for the transport`);
  const body = serializer.serialize(type, payload);
  if (body.length > limit) throw new PayloadTooLargeError(type, body.length, limit);
  return body;
}
