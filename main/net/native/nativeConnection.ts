import { Channel } from '../../../shared/net/channel';
import { Defaults, isReservedType } from '../protocol';
import { RttEstimator, type RetransmitOptions } from '../rttEstimator';
import type { Serializer } from '../serialization';
import { LossEstimator, RateWindow, type ConnectionStats } from '../netStats';
import { DropReason, TrafficCounters } from '../stats';
import type { Link } from '../link';
import { PayloadTooLargeError } from '../errors';
import type { InFlight } from '../reliableSender';
import { encodeDisconnectFrame, encodeIdFrame } from './nativeFrames';
import { NativeInbox } from './nativeInbox';
import { NativeOutbox, RELIABLE_CHANNELS } from './nativeOutbox';
import { NativeParseError, parseNativePacket } from './nativePacket';
import { Frame, Native } from './nativeWire';
import { PacketWriter } from './packetWriter';

/** Tunables of one native connection. */
export interface NativeConnectionOptions {
  token: bigint;
  serializer: Serializer;
  clock: () => number;
  /** Negotiated datagram size, bytes. */
  mtu: number;
  transmit: (datagram: Uint8Array) => void;
  onMessage: (type: string, payload: Record<string, unknown>, channel: Channel) => void;
  onClosed: (reason: string, byRemote: boolean) => void;
  /** Asks the owner to call `flushAcks()` at the end of this tick (auto mode: this event-loop turn). */
  requestFlush: () => void;
  heartbeatInterval?: number;
  timeout?: number;
  retransmit?: RetransmitOptions;
  maxAttempts?: number;
  /** Reliable units (≈ 1,150-byte pieces) that may wait behind the window, per channel. */
  maxQueued?: number;
  /** Largest reliable message, bytes. Default 4 MiB. */
  maxMessageSize?: number;
  /** Bytes of partial messages held per channel. Default 8 MiB. */
  reassemblyBytes?: number;
}

/** Largest unreliable message: beyond this, losing one fragment loses too much. */
export const MAX_UNRELIABLE_MESSAGE = 64 * 1024;
const MAX_OUTSTANDING_PINGS = 8;

/**
 * One connection speaking the native protocol: frames aggregated into datagrams, fragmentation,
 * acknowledgement of the whole send window, and the sequenced channel. Socket-free, like v1's Connection.
 */
export class NativeConnection implements Link {
  readonly protocol = 'native' as const;
  readonly token: bigint;
  readonly counters = new TrafficCounters();
  readonly rtt: RttEstimator;
  private readonly rto: RttEstimator;
  private readonly opts: Required<Omit<NativeConnectionOptions, 'retransmit'>>;
  private readonly writer: PacketWriter;
  private readonly outbox: NativeOutbox;
  private readonly inbox: NativeInbox;
  private readonly pings = new Map<number, number>();
  private nextPingId = 1;
  private lastPingSent: number;
  private lastSeen: number;
  private closedReason: string | undefined;
  private readonly rates: RateWindow;
  private readonly loss = new LossEstimator();

  constructor(options: NativeConnectionOptions) {
    this.opts = {
      heartbeatInterval: Defaults.HEARTBEAT_INTERVAL,
      timeout: Defaults.TIMEOUT,
      maxAttempts: 10,
      maxQueued: 65_536,
      maxMessageSize: 4 * 1024 * 1024,
      reassemblyBytes: 8 * 1024 * 1024,
      ...options,
    };
    this.token = options.token;
    this.rtt = new RttEstimator(options.retransmit);
    this.rto = new RttEstimator(options.retransmit);
    this.writer = new PacketWriter(options.token, options.mtu, (d) => this.transmit(d));
    this.outbox = new NativeOutbox({ writer: this.writer, maxQueued: this.opts.maxQueued, clock: this.opts.clock });
    this.inbox = new NativeInbox(
      {
        maxMessageSize: this.opts.maxMessageSize,
        maxUnreliableSize: Math.min(MAX_UNRELIABLE_MESSAGE, this.opts.maxMessageSize),
        reassemblyBytes: this.opts.reassemblyBytes,
        pieceSize: this.outbox.pieceSize,
        unreliableExpiry: 1,
      },
      {
        deliver: (body, channel) => this.deliver(body, channel),
        drop: (reason) => this.counters.drop(reason),
        duplicate: () => (this.counters.duplicatesReceived += 1),
        fail: (reason) => this.disconnect(reason),
      },
    );
    const now = this.opts.clock();
    this.lastSeen = now;
    this.lastPingSent = now - this.opts.heartbeatInterval;
    this.rates = new RateWindow(now, this.counters);
  }

  get serializer(): Serializer {
    return this.opts.serializer;
  }

  /** Always: the cookie proved the client receives at its address before this connection existed. */
  readonly confirmed = true;

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  get pendingReliable(): number {
    return this.outbox.pendingReliable;
  }

  maxBody(channel: Channel): number {
    const reliable = channel === Channel.RELIABLE_ORDERED || channel === Channel.RELIABLE_UNORDERED;
    return reliable ? this.opts.maxMessageSize : Math.min(MAX_UNRELIABLE_MESSAGE, this.opts.maxMessageSize);
  }

  /** Bytes held in partial (fragmented) messages. */
  get reassemblyBufferedBytes(): number {
    return this.inbox.bufferedBytes;
  }

  sendBody(body: Uint8Array, channel: Channel): void {
    if (this.closed) return;
    const limit = this.maxBody(channel);
    if (body.byteLength > limit) throw new PayloadTooLargeError('(serialized body)', body.byteLength, limit);
    this.outbox.send(body, channel, this.opts.clock());
    this.opts.requestFlush();
  }

  /** Handles a datagram from the peer's address: parsed, checked against the token, applied whole. */
  receiveDatagram(data: Uint8Array): void {
    if (this.closed) return;
    // The MTU was agreed: a larger datagram is not from a peer keeping to it.
    if (data.byteLength > this.opts.mtu) return this.counters.drop(DropReason.TOO_LONG);
    let packet;
    try {
      packet = parseNativePacket(data);
    } catch (error) {
      if (!(error instanceof NativeParseError)) throw error;
      return this.counters.drop(DropReason.BAD_BODY);
    }
    if (packet.token !== this.token) return this.counters.drop(DropReason.BAD_TOKEN);
    const now = this.opts.clock();
    this.lastSeen = now;
    this.counters.datagramsReceived += 1;
    this.counters.bytesReceived += data.byteLength;
    for (const frame of packet.frames) {
      if (this.closed) return;
      switch (frame.kind) {
        case Frame.MESSAGE:
          this.inbox.unit(frame.channel as Channel, frame.seq, 0, 1, frame.body, now);
          break;
        case Frame.FRAGMENT:
          this.inbox.unit(frame.channel as Channel, frame.seq, frame.index, frame.count, frame.body, now);
          break;
        case Frame.ACK:
          this.acknowledge(frame.channel as 1 | 2, frame.next, frame.bitmap, now);
          break;
        case Frame.PING:
          this.writer.append(encodeIdFrame(Frame.PONG, frame.id));
          this.opts.requestFlush();
          break;
        case Frame.PONG:
          this.pong(frame.id, now);
          break;
        case Frame.DISCONNECT:
          this.close(
            frame.reason ? `disconnected by the other side: ${frame.reason}` : 'disconnected by the other side',
            true,
          );
          return;
      }
    }
  }

  service(now: number): void {
    if (this.closed) return;
    if (now - this.lastSeen > this.opts.timeout) {
      this.close(`timed out: nothing heard for ${this.opts.timeout} s`, false);
      return;
    }
    this.rates.roll(now, this.counters);
    if (now - this.lastPingSent >= this.opts.heartbeatInterval) this.sendPing(now);
    for (const channel of RELIABLE_CHANNELS) {
      const sender = this.outbox.senders[channel];
      const oldest = sender.oldest();
      if (oldest && oldest.attempts >= this.opts.maxAttempts && now - oldest.firstSent > this.opts.timeout) {
        this.disconnect(`reliable message not acknowledged after ${oldest.attempts} attempts`);
        return;
      }
      this.resend(sender.dueForRetransmit(now, this.timeoutFor, this.rto.fastRetransmitInterval()));
    }
    this.inbox.expire(now);
    this.flushAcks();
  }

  /** Packs owed acknowledgements and sends the datagram being filled. */
  flushAcks(): void {
    if (this.closed) return;
    for (const frame of this.inbox.takeAcks()) {
      this.counters.acksSent += 1;
      this.writer.append(frame);
    }
    this.writer.flush();
  }

  addRttSample(seconds: number): void {
    this.rtt.addSample(seconds);
    this.rto.addSample(seconds);
  }

  stats(): ConnectionStats {
    const rates = this.rates.perSecond;
    return {
      rtt: this.rtt.smoothed,
      jitter: this.rtt.jitter,
      loss: this.loss.estimate,
      packetsSentPerSecond: rates.datagramsSent,
      packetsReceivedPerSecond: rates.datagramsReceived,
      bytesSentPerSecond: rates.bytesSent,
      bytesReceivedPerSecond: rates.bytesReceived,
      retransmits: this.counters.retransmits,
      dropped: this.counters.droppedTotal,
      pendingReliable: this.pendingReliable,
    };
  }

  close(reason: string, byRemote: boolean): void {
    if (this.closed) return;
    this.closedReason = reason;
    this.opts.onClosed(reason, byRemote);
  }

  disconnect(reason: string): void {
    if (this.closed) return;
    this.writer.flush();
    // Three separate datagrams: the notice is unreliable.
    for (let i = 0; i < 3; i++) {
      this.writer.append(encodeDisconnectFrame(reason));
      this.writer.flush();
    }
    this.close(reason, false);
  }

  private acknowledge(channel: 1 | 2, next: number, bitmap: Uint8Array, now: number): void {
    const sample = (entry: InFlight) => {
      if (entry.attempts === 1) this.rto.addSample(now - entry.firstSent);
      this.loss.observe(entry.attempts > 1);
    };
    const sender = this.outbox.senders[channel];
    if (sender.acknowledgeCumulative(next, bitmap, sample) === 0) return;
    this.resend(sender.dueFast(now, this.rto.fastRetransmitInterval()));
    this.outbox.flushSendable(channel, now);
    this.opts.requestFlush();
  }

  private resend(entries: readonly InFlight[]): void {
    this.counters.retransmits += entries.length;
    this.outbox.resend(entries);
  }

  private readonly timeoutFor = (timeouts: number): number => this.rto.retransmitTimeout(timeouts);

  private deliver(body: Uint8Array, channel: Channel): void {
    if (this.closed) return;
    let message;
    try {
      message = this.opts.serializer.deserialize(body);
    } catch {
      return this.counters.drop(DropReason.BAD_BODY);
    }
    if (isReservedType(message.type)) return this.counters.drop(DropReason.BAD_TYPE);
    this.counters.messagesDelivered += 1;
    this.opts.onMessage(message.type, message.payload, channel);
  }

  private pong(id: number, now: number): void {
    const sent = this.pings.get(id);
    if (sent === undefined) return;
    this.pings.delete(id);
    this.loss.observe(false);
    this.addRttSample(now - sent);
  }

  private sendPing(now: number): void {
    const id = this.nextPingId++;
    this.pings.set(id, now);
    if (this.pings.delete(id - MAX_OUTSTANDING_PINGS)) this.loss.observe(true);
    this.lastPingSent = now;
    this.writer.append(encodeIdFrame(Frame.PING, id));
  }

  private transmit(datagram: Uint8Array): void {
    this.counters.datagramsSent += 1;
    this.counters.bytesSent += datagram.byteLength;
    this.opts.transmit(datagram);
  }
}

/** The default MTU when none was negotiated. */
export const DEFAULT_NATIVE_MTU = Native.DEFAULT_MTU;
