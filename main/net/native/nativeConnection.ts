import { CHANNEL_POLICY, RELIABLE_CHANNELS, type Channel, type ReliableChannel } from '../../../shared/net/channel';
import { isReservedType } from '../v1/protocol';
import type { RttEstimator } from '../v1/rttEstimator';
import type { Serializer } from '../v1/serialization';
import type { ConnectionStats } from '../v1/netStats';
import { ConnectionHealth, type HealthOptions } from '../v1/connectionHealth';
import { DropReason, TrafficCounters } from '../v1/stats';
import type { Link, LinkEvents } from '../v1/link';
import { PayloadTooLargeError } from '../errors';
import { LossWindow } from '../v1/netStats';
import { encodeDisconnectFrame, encodeIdFrame, encodePathFrame } from './wire/nativeFrames';
import { Opened, PacketOpener, PacketSealer, type DirectionKeys } from './protection/packetProtection';
import type { PathAddress } from './migration/pathValidator';
import { NativeMigration, type PathMigration } from './migration/nativeMigration';
import { NativeInbox } from './delivery/nativeInbox';
import { NativeOutbox } from './delivery/nativeOutbox';
import { splitToken } from './wire/nativePacket';
import { NativeParseError, PacketCursor } from './wire/packetCursor';
import { Frame, Native } from './wire/nativeWire';
import { PacketWriter } from './wire/packetWriter';
import { NativeRecovery } from './recovery/nativeRecovery';
import { AckRepeats } from './recovery/ackRepeats';
import type { DepartureKind } from '../departure';

// Module-level copies of imported constants and functions: under a CommonJS transpiler (tsx, vitest) each
// use of an imported binding is a getter call, which shows in the per-message profile.
const { MESSAGE, FRAGMENT, ACK, PING, PONG, DISCONNECT, PATH_CHALLENGE, PATH_RESPONSE } = Frame;
const { HEADER_SIZE, TAG_SIZE } = Native;
const POLICY = CHANNEL_POLICY;
const RELIABLE = RELIABLE_CHANNELS;
/** The bitmap of an ACK frame that carries none. */
const NO_BITMAP = new Uint8Array(0);
const isReserved = isReservedType;

/** Tunables of one native connection. */
export interface NativeConnectionOptions extends HealthOptions, LinkEvents {
  serializer: Serializer;
  /** Negotiated datagram size, bytes. */
  mtu: number;
  /** Asks the owner to call `flushAcks()` at the end of this tick (auto mode: this event-loop turn). */
  requestFlush: () => void;
  /**
   * Asks the owner to call `flushAcks()` at clock time `at` or soon after, between ticks: a loss verdict is due
   * then (a unit overtaken by an acknowledged one runs out of reorder allowance). Absent (manual mode, tests): it
   * waits for the next tick. Copies and repeated ACKs do not ask: a datagram of their own would cost its header and
   * tag, and they ride the next one for free.
   */
  requestWake?: (at: number) => void;
  /** Reliable units (≈ 1,150-byte pieces) that may wait behind the window, per channel. */
  maxQueued?: number;
  /** Largest reliable message, bytes. Default 4 MiB. */
  maxMessageSize?: number;
  /** Bytes of partial messages held per channel. Default 8 MiB. */
  reassemblyBytes?: number;
  /** The peer's advertised receive window: reliable bytes we may have unacknowledged. Default the minimum. */
  peerRecvWindow?: number;
  /** The packet keys agreed in the handshake: every datagram is numbered and tagged with them. */
  keys: DirectionKeys;
  /** Set by an owner that lets the peer move to another address (the Server); without it, only one path exists. */
  migration?: PathMigration;
}

/** Largest unreliable message: beyond this, losing one fragment loses too much. */
export const MAX_UNRELIABLE_MESSAGE = 64 * 1024;

/**
 * One connection speaking the native protocol: frames aggregated into datagrams, fragmentation,
 * acknowledgement of the whole send window, and the sequenced channel. Socket-free, like v1's Connection.
 */
export class NativeConnection implements Link {
  readonly protocol = 'native' as const;
  /** @internal see Link.queueMarks */
  queueMarks = 0;
  readonly token: bigint;
  private readonly tokenHigh: number;
  private readonly tokenLow: number;
  readonly counters = new TrafficCounters();
  private readonly health: ConnectionHealth;
  private readonly opts: Required<
    Pick<
      NativeConnectionOptions,
      'serializer' | 'clock' | 'mtu' | 'transmit' | 'onMessage' | 'onClosed' | 'requestFlush'
    >
  > & { maxMessageSize: number };
  private readonly writer: PacketWriter;
  private readonly outbox: NativeOutbox;
  private readonly inbox: NativeInbox;
  /** @internal numbers and tags what this side sends (tests seal hand-made datagrams with it) */
  readonly sealer: PacketSealer;
  private readonly opener: PacketOpener;
  /** Fraction of the peer's datagrams that never arrived (packet numbers skipped), over the same window as `loss`. */
  private readonly lossIn: LossWindow;
  private readonly requestWake: ((at: number) => void) | undefined;
  /** Present when the owner lets the peer move (the Server). */
  private readonly paths: NativeMigration | undefined;
  /** Why it ended, once it has (set by `close`). */
  departure: DepartureKind | undefined;
  private readonly recovery: NativeRecovery;
  private readonly acks: AckRepeats;

  constructor(options: NativeConnectionOptions) {
    const maxMessageSize = options.maxMessageSize ?? 4 * 1024 * 1024;
    this.opts = { ...options, maxMessageSize };
    this.token = options.token;
    ({ high: this.tokenHigh, low: this.tokenLow } = splitToken(options.token));
    this.health = new ConnectionHealth(options, this.counters);
    this.sealer = new PacketSealer(options.keys.send);
    this.opener = new PacketOpener(options.keys.receive);
    this.lossIn = new LossWindow(options.clock());
    this.requestWake = options.requestWake;
    this.paths =
      options.migration &&
      new NativeMigration(options.migration, options.token, options.mtu, this.sealer, this.counters);
    this.writer = new PacketWriter(options.token, options.mtu, (d) => this.transmit(d), this.sealer);
    this.outbox = new NativeOutbox({
      writer: this.writer,
      maxQueued: options.maxQueued ?? 65_536,
      clock: options.clock,
      peerRecvWindow: options.peerRecvWindow ?? Native.MIN_RECV_WINDOW,
    });
    this.recovery = new NativeRecovery({
      outbox: this.outbox,
      writer: this.writer,
      health: this.health,
      counters: this.counters,
      clock: options.clock,
    });
    this.inbox = new NativeInbox(
      {
        maxMessageSize,
        maxUnreliableSize: Math.min(MAX_UNRELIABLE_MESSAGE, maxMessageSize),
        reassemblyBytes: options.reassemblyBytes ?? 8 * 1024 * 1024,
        pieceSize: this.outbox.pieceSize,
        unreliableExpiry: 1,
      },
      {
        deliver: (body, channel) => this.deliver(body, channel),
        drop: (reason) => this.counters.drop(reason),
        duplicate: () => (this.counters.duplicatesReceived += 1),
        fail: (reason) => this.disconnect(reason, 'protocol-error'),
      },
    );
    this.acks = new AckRepeats(this.inbox, this.writer, this.counters, options.clock);
  }

  /** Round-trip time from heartbeats: the reference's smoothed RTT, reported to the application. */
  get rtt(): RttEstimator {
    return this.health.rtt;
  }

  get serializer(): Serializer {
    return this.opts.serializer;
  }

  get closed(): boolean {
    return this.departure !== undefined;
  }

  get pendingReliable(): number {
    return this.outbox.pendingReliable;
  }

  maxBody(channel: Channel): number {
    return POLICY[channel]!.reliable
      ? this.opts.maxMessageSize
      : Math.min(MAX_UNRELIABLE_MESSAGE, this.opts.maxMessageSize);
  }

  /** Reliable bytes sent and not yet acknowledged, and the most the peer's receive window allows. */
  get flight(): { inFlight: number; limit: number } {
    const { inFlight, limit } = this.outbox.budget;
    return { inFlight, limit };
  }

  /** The time-based loss detector's reorder window now, seconds (diagnostics). */
  get reorderWindow(): number {
    return this.recovery.reorderWindow;
  }

  /** Frame bytes of reliable units sent for the first time, ever (retransmissions and copies aside). */
  get reliableBytesFirstSent(): number {
    return this.outbox.budget.admitted;
  }

  /** Serialized bodies of the reliable messages sent, bytes: the payload the redundancy budget is a fraction of. */
  get reliablePayloadBytes(): number {
    return this.reliableBodyBytes;
  }

  /** Bytes held in partial (fragmented) messages. */
  get reassemblyBufferedBytes(): number {
    return this.inbox.bufferedBytes;
  }

  sendBody(body: Uint8Array, channel: Channel): void {
    if (this.closed) return;
    const limit = this.maxBody(channel);
    if (body.length > limit) throw new PayloadTooLargeError('(serialized body)', body.length, limit);
    this.outbox.send(body, channel);
    if (POLICY[channel]!.reliable) this.reliableBodyBytes += body.length;
    this.opts.requestFlush();
  }

  /**
   * Handles a datagram: checked against the token, authenticated (tag, then packet number: a replay is dropped),
   * parsed, applied whole. `path`: the address it came from when that is not the connection's own (the owner
   * found the connection by its token); its frames count, and it may start or finish a move to that address.
   */
  receiveDatagram(data: Uint8Array, path?: PathAddress): void {
    if (this.closed) return;
    // The MTU was agreed: a larger datagram is not from a peer keeping to it.
    if (data.length > this.opts.mtu) return this.counters.drop(DropReason.TOO_LONG);
    if (data.length < HEADER_SIZE + 1 + TAG_SIZE) return this.counters.drop(DropReason.TOO_SHORT);
    if (path !== undefined && !this.paths) return this.counters.drop(DropReason.UNKNOWN_SOURCE);
    if (u32(data, 5) !== this.tokenLow || u32(data, 1) !== this.tokenHigh) {
      return this.counters.drop(DropReason.BAD_TOKEN);
    }
    const before = this.opener.largest;
    const opened = this.opener.open(data);
    if (opened === Opened.BAD_TAG) return this.counters.drop(DropReason.BAD_TAG);
    if (opened === Opened.REPLAY) return this.counters.drop(DropReason.REPLAYED);
    const now = this.opts.clock();
    // Numbers skipped are datagrams the peer sent that have not arrived; a late one takes its miss back.
    if (opened === Opened.NEWEST) {
      const skipped = this.opener.pn - before - 1;
      this.lossIn.record(now, skipped + 1, skipped);
    } else this.lossIn.record(now, 0, -1);
    let cursor;
    try {
      cursor = new PacketCursor(data);
    } catch (error) {
      if (!(error instanceof NativeParseError)) throw error;
      return this.counters.drop(DropReason.BAD_BODY);
    }
    this.health.heard(now);
    this.counters.countReceived(data.length);
    if (path !== undefined) this.paths!.heard(path, data.length, opened === Opened.NEWEST, now);
    while (cursor.nextFrame()) {
      if (this.closed) return;
      switch (cursor.kind) {
        case MESSAGE:
          this.inbox.unit(cursor.channel as Channel, cursor.seq, 0, 1, cursor.view(), now);
          break;
        case FRAGMENT:
          this.inbox.unit(cursor.channel as Channel, cursor.seq, cursor.index, cursor.count, cursor.view(), now);
          break;
        case ACK:
          // Most acks carry no bitmap (nothing arrived out of order): no view for those.
          if (
            this.recovery.acknowledge(
              cursor.channel as ReliableChannel,
              cursor.next,
              cursor.length === 0 ? NO_BITMAP : cursor.view(),
              now,
            )
          )
            this.acked = true;
          break;
        case PING: {
          this.writer.append(encodeIdFrame(Frame.PONG, cursor.id));
          const ours = this.health.pingHeard(now);
          if (ours !== undefined) this.writer.append(encodeIdFrame(PING, ours));
          this.opts.requestFlush();
          break;
        }
        case PONG:
          this.health.pong(cursor.id, now);
          break;
        case PATH_CHALLENGE:
          // Answered on our own path: a client has one, and its answer leaves from wherever it now is.
          this.writer.append(encodePathFrame(PATH_RESPONSE, cursor.view()));
          this.opts.requestFlush();
          break;
        case PATH_RESPONSE:
          if (path !== undefined && this.paths!.answered(path, cursor.view())) this.moved(now);
          break;
        case DISCONNECT: {
          const reason = cursor.reason();
          this.close(reason ? `disconnected by the other side: ${reason}` : 'disconnected by the other side', 'closed-by-peer');
          return;
        }
      }
    }
    if (this.acked && !this.closed) this.afterAcks(now);
  }

  /** Addresses challenged and not yet proven (0 without migration). */
  get pendingPaths(): number {
    return this.paths?.pending ?? 0;
  }

  /**
   * The peer proved it receives at a new address (the owner sends there from now on): every unit in flight goes
   * again at once (what went to the old address since the peer left it is lost), with a fresh timeout.
   */
  private moved(now: number): void {
    this.recovery.resendAllNow(now);
    this.opts.requestFlush();
  }

  service(now: number): void {
    if (this.closed) return;
    const health = this.health;
    const silent = health.silence(now);
    if (silent) return this.close(silent, 'timed-out');
    const ping = health.tick(now);
    if (ping !== undefined) this.writer.append(encodeIdFrame(Frame.PING, ping));
    for (const channel of RELIABLE) {
      const stuck = health.stuck(this.outbox.senders[channel].oldest(), now);
      if (stuck) return this.disconnect(stuck, 'unacknowledged');
    }
    this.recovery.service(now);
    this.inbox.expire(now);
    this.flushAcks();
  }

  /** End of a tick: packs the reliable units sent in it and owed acknowledgements, and sends the datagram being filled. */
  flushAcks(): void {
    if (this.closed) return;
    const recovery = this.recovery;
    recovery.packQueued();
    const timed = this.acks.at !== Infinity || recovery.copiesPending || recovery.nextLossCheck !== Infinity;
    const now = timed ? this.opts.clock() : 0;
    recovery.judgeDue(now);
    this.acks.write(now, this.copySpacing);
    recovery.releaseCopies(now);
    this.writer.flush();
    // A unit overtaken but not yet due is judged at its due time: asked for, not left to the next tick.
    // Asked at every flush while one is pending: the owner keeps one timer, for the earliest time any connection asked.
    if (recovery.nextLossCheck !== Infinity && this.requestWake !== undefined) this.requestWake(recovery.nextLossCheck);
  }

  addRttSample(seconds: number): void {
    this.health.addRttSample(seconds);
    this.recovery.addRttSample(seconds);
  }

  stats(): ConnectionStats {
    const stats = this.health.stats(this.pendingReliable);
    stats.lossIn = this.lossIn.fraction(this.opts.clock());
    return stats;
  }

  close(reason: string, kind: DepartureKind): void {
    if (this.closed) return;
    this.departure = kind;
    this.opts.onClosed(reason, kind);
  }

  disconnect(reason: string, kind: DepartureKind = 'closed-locally'): void {
    if (this.closed) return;
    // What was sent in this tick leaves first, as it would have at the end of the tick.
    this.recovery.packQueued();
    this.writer.flush();
    // Three separate datagrams: the notice is unreliable.
    for (let i = 0; i < 3; i++) {
      this.writer.append(encodeDisconnectFrame(reason));
      this.writer.flush();
    }
    this.close(reason, kind);
  }

  private readonly copySpacing = () => this.recovery.copySpacing();
  /** See {@link reliablePayloadBytes}. */
  private reliableBodyBytes = 0;
  /** Whether an ACK frame of the datagram being read freed anything. */
  private acked = false;

  /**
   * After a datagram's frames: losses are judged once all of its ACK frames are applied (an ACK of one channel
   * read before the other's, in the same datagram, would find the other's units overtaken), then the freed
   * bytes let either channel's queue move (they share the peer's receive window).
   */
  private afterAcks(now: number): void {
    this.acked = false;
    this.recovery.afterAcks(now);
    this.opts.requestFlush();
  }

  private deliver(body: Uint8Array, channel: Channel): void {
    if (this.closed) return;
    let message;
    try {
      message = this.opts.serializer.deserialize(body);
    } catch {
      return this.counters.drop(DropReason.BAD_BODY);
    }
    if (isReserved(message.type)) return this.counters.drop(DropReason.BAD_TYPE);
    this.counters.messagesDelivered += 1;
    this.opts.onMessage(message.type, message.payload, channel);
  }

  private transmit(datagram: Uint8Array): boolean {
    this.counters.countSent(datagram.length);
    return this.opts.transmit(datagram) === true;
  }
}

/** The big-endian u32 at `at`. */
const u32 = (d: Uint8Array, at: number): number =>
  ((d[at]! << 24) | (d[at + 1]! << 16) | (d[at + 2]! << 8) | d[at + 3]!) >>> 0;
