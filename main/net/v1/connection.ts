import { Channel } from '../../../shared/net/channel';
import { writeHeader, type PacketHeader, type ReceivedHeader } from './header';
import { ReservedType, Wire, isReservedType } from './protocol';
import { ReliableReceiver } from './reliableReceiver';
import { ReliableSender, type InFlight } from './reliableSender';
import type { RttEstimator } from '../endpoint/rttEstimator';
import { ConnectionHealth, type HealthOptions } from '../endpoint/connectionHealth';
import { PayloadTooLargeError } from '../errors';
import type { DecodedMessage, Serializer } from './serialization';
import type { ConnectionStats } from '../endpoint/netStats';
import { DropReason, TrafficCounters } from '../endpoint/stats';
import type { Link, LinkEvents } from '../endpoint/link';

/** Tunables of one connection. */
export interface ConnectionOptions extends HealthOptions, LinkEvents {
  serializer: Serializer;
  /** Reliable messages that may wait behind the send window, per channel. */
  maxQueued?: number;
  /**
   * false for a server's new v1 peer: no heartbeats until the other side has sent something, since
   * v1 cannot tell a real client from a spoofed request. Default true (a client heard the accept).
   */
  confirmed?: boolean;
}

const RELIABLE = [Channel.RELIABLE_ORDERED, Channel.RELIABLE_UNORDERED] as const;
type ReliableChannel = (typeof RELIABLE)[number];
const MAX_EXTRA_ACKS = 64;

/**
 * The state of one gale.net v1 connection, without sockets: reliability per channel,
 * heartbeats and RTT, timeout detection. The owner feeds it verified datagrams and calls
 * `service` periodically; it transmits through the injected function.
 */
export class Connection implements Link {
  readonly protocol = 'v1' as const;
  readonly token: bigint;
  readonly counters = new TrafficCounters();
  private readonly health: ConnectionHealth;
  private readonly opts: Required<
    Pick<ConnectionOptions, 'serializer' | 'clock' | 'transmit' | 'onMessage' | 'onClosed'>
  >;
  private readonly senders: Record<ReliableChannel, ReliableSender>;
  private readonly receivers: Record<ReliableChannel, ReliableReceiver<DecodedMessage>>;
  private readonly ackDirty: Record<ReliableChannel, boolean> = { 1: false, 2: false };
  private readonly extraAcks: Record<ReliableChannel, Set<number>> = { 1: new Set(), 2: new Set() };
  private heard = false;
  private closedReason: string | undefined;
  private readonly ackBody: Uint8Array;

  constructor(options: ConnectionOptions) {
    this.opts = options;
    this.heard = options.confirmed ?? true;
    this.token = options.token;
    this.health = new ConnectionHealth(options, this.counters);
    const sender = () => new ReliableSender({ maxQueued: options.maxQueued ?? 65_536 });
    this.senders = { 1: sender(), 2: sender() };
    this.receivers = { 1: new ReliableReceiver({ ordered: true }), 2: new ReliableReceiver({ ordered: false }) };
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

  /**
   * Whether the other side has sent anything with the token since the accept: proof it receives at
   * its address. Until then no heartbeats go out, so a spoofed request reflects one accept, no more.
   */
  get confirmed(): boolean {
    return this.heard;
  }

  /** Whether the connection has ended. */
  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** Reliable messages not yet acknowledged plus those queued behind the window. */
  get pendingReliable(): number {
    return RELIABLE.reduce((n, c) => n + this.senders[c].inFlightCount + this.senders[c].queuedCount, 0);
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
    // v1 has no sequenced channel: such messages travel unreliable (the peer may see a stale one).
    if (channel === Channel.UNRELIABLE || channel === Channel.UNRELIABLE_SEQUENCED) {
      channel = Channel.UNRELIABLE;
      this.transmit({ channel, token: this.token, sequence: 0, ack: 0, ackBitfield: 0 }, body);
      return;
    }
    this.senders[channel].enqueue(body);
    this.flushSendable(channel, this.opts.clock());
  }

  /** Handles a datagram whose token and source were already checked by the owner. */
  receive(header: ReceivedHeader, message: DecodedMessage, size: number): void {
    if (this.closed) return;
    const now = this.opts.clock();
    this.health.heard(now);
    this.heard = true;
    this.counters.countReceived(size);
    if (header.channel === Channel.UNRELIABLE) this.receiveControl(message, now);
    else this.receiveReliable(header.channel as ReliableChannel, header, message, now);
  }

  /** Heartbeats, retransmissions, timeout detection and pending acks; call every few milliseconds. */
  service(now: number): void {
    if (this.closed) return;
    const silent = this.health.silence(now);
    if (silent) return this.close(silent, false);
    // No heartbeats to a peer that has not spoken yet: see `confirmed`.
    const ping = this.heard ? this.health.tick(now) : undefined;
    if (ping !== undefined) this.sendControl(ReservedType.PING, { id: ping });
    for (const channel of RELIABLE) {
      const stuck = this.health.stuck(this.senders[channel].oldest(), now);
      if (stuck) return this.close(stuck, false);
      this.retransmitDue(channel, now);
    }
    this.flushAcks();
  }

  private retransmitDue(channel: ReliableChannel, now: number): void {
    const health = this.health;
    const due = this.senders[channel].dueForRetransmit(now, health.timeoutFor, health.rto.fastRetransmitInterval());
    for (const entry of due) {
      this.counters.retransmits += 1;
      this.transmitReliable(channel, entry.sequence, entry.body);
    }
  }

  /** Folds in a round-trip sample taken outside the connection (the connect handshake). */
  addRttSample(seconds: number): void {
    this.health.addRttSample(seconds);
  }

  /** Sends bare acks for channels with something new to acknowledge. */
  flushAcks(): void {
    for (const channel of RELIABLE) {
      const receiver = this.receivers[channel];
      if (this.ackDirty[channel]) {
        const { ack, bitfield } = receiver.ackHeader();
        this.ackDirty[channel] = false;
        this.sendAck(channel, ack, bitfield);
      }
      for (const seq of this.extraAcks[channel]) this.sendAck(channel, seq, receiver.bitfieldFor(seq));
      this.extraAcks[channel].clear();
    }
  }

  /** Ends the connection locally (no datagram sent); `onClosed` fires once. */
  close(reason: string, byRemote: boolean): void {
    if (this.closed) return;
    this.closedReason = reason;
    this.opts.onClosed(reason, byRemote);
  }

  /** Sends `__disconnect__` (a few times: it is unreliable) and closes. */
  disconnect(reason: string): void {
    if (this.closed) return;
    const body = this.opts.serializer.serialize(ReservedType.DISCONNECT, {});
    for (let i = 0; i < 3; i++)
      this.transmit({ channel: 0, token: this.token, sequence: 0, ack: 0, ackBitfield: 0 }, body);
    this.close(reason, false);
  }

  private receiveControl(message: DecodedMessage, now: number): void {
    switch (message.type) {
      case ReservedType.PING:
        this.sendControl(ReservedType.PONG, message.payload);
        return;
      case ReservedType.PONG:
        return this.health.pong(message.payload.id, now);
      case ReservedType.DISCONNECT:
        this.close('disconnected by the other side', true);
        return;
      default:
        if (isReservedType(message.type)) return; // connect handshakes and stray acks: the owner's concern
        this.deliver(message, Channel.UNRELIABLE);
    }
  }

  private receiveReliable(
    channel: ReliableChannel,
    header: ReceivedHeader,
    message: DecodedMessage,
    now: number,
  ): void {
    const isAck = message.type === ReservedType.ACK;
    // (0, 0) is ambiguous (seq 0 received, or nothing yet): trust it only from a bare ack.
    if (isAck || header.ack !== 0 || header.ackBitfield !== 0) {
      const sample = (entry: InFlight) => this.health.acknowledged(entry, now);
      if (this.senders[channel].acknowledge(header.ack, header.ackBitfield, sample) > 0) {
        this.retransmitDue(channel, now);
        this.flushSendable(channel, now);
      }
    }
    if (isAck) return;
    if (isReservedType(message.type)) {
      this.counters.drop(DropReason.BAD_TYPE);
      return;
    }
    const receiver = this.receivers[channel];
    const status = receiver.receive(header.sequence, message, (m) => this.deliver(m, channel));
    if (status === 'out-of-window') {
      this.counters.drop(DropReason.OUT_OF_WINDOW);
      return;
    }
    if (status === 'duplicate') {
      this.counters.duplicatesReceived += 1;
      if (!receiver.coveredByHeader(header.sequence) && this.extraAcks[channel].size < MAX_EXTRA_ACKS) {
        this.extraAcks[channel].add(header.sequence);
        return;
      }
    }
    this.ackDirty[channel] = true;
  }

  private deliver(message: DecodedMessage, channel: Channel): void {
    if (this.closed) return;
    this.counters.messagesDelivered += 1;
    this.opts.onMessage(message.type, message.payload, channel);
  }

  private flushSendable(channel: ReliableChannel, now: number): void {
    for (const entry of this.senders[channel].takeSendable(now))
      this.transmitReliable(channel, entry.sequence, entry.body);
  }

  private transmitReliable(channel: ReliableChannel, sequence: number, body: Uint8Array): void {
    const { ack, bitfield } = this.receivers[channel].ackHeader();
    this.ackDirty[channel] = false;
    this.transmit({ channel, token: this.token, sequence, ack, ackBitfield: bitfield }, body);
  }

  private sendAck(channel: ReliableChannel, ack: number, bitfield: number): void {
    this.counters.acksSent += 1;
    this.transmit({ channel, token: this.token, sequence: 0, ack, ackBitfield: bitfield }, this.ackBody);
  }

  private sendControl(type: string, payload: unknown): void {
    this.transmit(
      { channel: 0, token: this.token, sequence: 0, ack: 0, ackBitfield: 0 },
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
