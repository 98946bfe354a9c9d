import { CHANNEL_POLICY, RELIABLE_CHANNELS, type Channel, type ReliableChannel } from '../../../shared/net/channel';
import { isReservedType } from '../v1/protocol';
import type { RttEstimator } from '../v1/rttEstimator';
import type { Serializer } from '../v1/serialization';
import type { ConnectionStats } from '../v1/netStats';
import { ConnectionHealth, type HealthOptions } from '../v1/connectionHealth';
import { DropReason, TrafficCounters } from '../v1/stats';
import type { Link, LinkEvents } from '../v1/link';
import { PayloadTooLargeError } from '../errors';
import type { InFlight } from '../v1/reliableSender';
import { LossWindow } from '../v1/netStats';
import { sequenceDiff } from '../../../shared/net/sequenceMath';
import { encodeDisconnectFrame, encodeIdFrame, encodePathFrame } from './nativeFrames';
import { Opened, PacketOpener, PacketSealer, type DirectionKeys } from './packetProtection';
import { PathValidator, type PathAddress } from './pathValidator';
import { NativeInbox } from './nativeInbox';
import { NativeOutbox, type OutboundUnit } from './nativeOutbox';
import { splitToken } from './nativePacket';
import { NativeParseError, PacketCursor } from './packetCursor';
import { Frame, Native } from './nativeWire';
import { PacketWriter } from './packetWriter';
import { LossDetector, Recovery } from './lossDetector';
import { RedundantCopies } from './redundantCopies';

// Module-level copies of imported constants and functions: under a CommonJS transpiler (tsx, vitest) each
// use of an imported binding is a getter call, which shows in the per-message profile.
const { MESSAGE, FRAGMENT, ACK, PING, PONG, DISCONNECT, PATH_CHALLENGE, PATH_RESPONSE } = Frame;
const { HEADER_SIZE, TAG_SIZE } = Native;
/** A datagram carrying one PATH_CHALLENGE frame, bytes. */
const CHALLENGE_DATAGRAM = HEADER_SIZE + 1 + Native.PATH_DATA + TAG_SIZE;
/** Every in-flight unit is due: the resend after a move to a proven address. */
const NOW = () => 0;
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

/** How a connection reaches addresses other than its own, and tells its owner it moved. */
export interface PathMigration {
  /** Sends a datagram (a path challenge) to an address that is not the connection's yet. */
  sendTo(datagram: Uint8Array, path: PathAddress): boolean | void;
  /** The peer proved it receives at `path`: the owner sends there from now on. */
  moved(path: PathAddress): void;
  /** Random bytes for path challenges (default: the OS CSPRNG, supplied by the owner). */
  random: (size: number) => Uint8Array;
}

/** Redundant copies may add at most this fraction of the reliable bytes first sent. */
export const REDUNDANCY_BUDGET = 0.15;

/** What the connection remembers of a unit it re-sent, until its ack. */
interface Resent {
  channel: ReliableChannel;
  cause: Recovery;
  /** Redundant copies sent of it. */
  copies: number;
  /** Its `attempts` when the last copy left: equal to attempts now means the copy rode beside the last transmission. */
  copyAttempts: number;
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
  private readonly migration: PathMigration | undefined;
  private readonly requestWake: ((at: number) => void) | undefined;
  private readonly paths: PathValidator | undefined;
  /** Sends path challenges to {@link challengeTarget}, numbered and tagged like every datagram. */
  private challengeWriter: PacketWriter | undefined;
  private challengeTarget: PathAddress = { address: '', port: 0 };
  private closedReason: string | undefined;
  private readonly detector = new LossDetector();
  private readonly copies = new RedundantCopies<OutboundUnit>({ budget: REDUNDANCY_BUDGET });
  /**
   * Units re-sent and not yet acknowledged, in order of their last transmission (re-inserted when re-sent again):
   * the time-based detector walks them oldest first and stops at the first sent after the newest delivered unit.
   */
  private readonly resent = new Map<InFlight<OutboundUnit>, Resent>();
  /** When a reliable unit last left (new or re-sent, copies aside): the tail loss probe counts from it. */
  private lastReliableSend = -Infinity;
  /** When an acknowledgement last freed anything: acks still coming mean the tail is not lost. */
  private lastProgress = -Infinity;
  /** Probes sent since the last acknowledgement that freed anything (each doubles the next probe timeout). */
  private probes = 0;
  /** Earliest time a unit overtaken by a delivered one runs out of reorder allowance (Infinity: none waits). */
  private nextLossCheck = Infinity;

  constructor(options: NativeConnectionOptions) {
    const maxMessageSize = options.maxMessageSize ?? 4 * 1024 * 1024;
    this.opts = { ...options, maxMessageSize };
    this.token = options.token;
    ({ high: this.tokenHigh, low: this.tokenLow } = splitToken(options.token));
    this.health = new ConnectionHealth(options, this.counters);
    this.sealer = new PacketSealer(options.keys.send);
    this.opener = new PacketOpener(options.keys.receive);
    this.lossIn = new LossWindow(options.clock());
    this.migration = options.migration;
    this.requestWake = options.requestWake;
    this.paths = options.migration && new PathValidator(options.migration.random);
    this.writer = new PacketWriter(options.token, options.mtu, (d) => this.transmit(d), this.sealer);
    this.outbox = new NativeOutbox({
      writer: this.writer,
      maxQueued: options.maxQueued ?? 65_536,
      clock: options.clock,
      peerRecvWindow: options.peerRecvWindow ?? Native.MIN_RECV_WINDOW,
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
        fail: (reason) => this.disconnect(reason),
      },
    );
  }

  /** Round-trip time from heartbeats: the reference's smoothed RTT, reported to the application. */
  get rtt(): RttEstimator {
    return this.health.rtt;
  }

  get serializer(): Serializer {
    return this.opts.serializer;
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
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
    return this.detector.reorderWindow();
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
    if (path !== undefined) this.challenge(path, data.length, opened === Opened.NEWEST, now);
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
          this.acknowledge(
            cursor.channel as ReliableChannel,
            cursor.next,
            cursor.length === 0 ? NO_BITMAP : cursor.view(),
            now,
          );
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
          if (path !== undefined && this.paths!.answered(path, cursor.view())) this.moveTo(path, now);
          break;
        case DISCONNECT: {
          const reason = cursor.reason();
          this.close(reason ? `disconnected by the other side: ${reason}` : 'disconnected by the other side', true);
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

  /** Sends a path challenge to `path` when one is due (see PathValidator.heard); what else we send stays put. */
  private challenge(path: PathAddress, size: number, newest: boolean, now: number): void {
    const data = this.paths!.heard(path, size, newest, now, CHALLENGE_DATAGRAM);
    if (!data) return;
    const migration = this.migration!;
    this.challengeWriter ??= new PacketWriter(
      this.token,
      this.opts.mtu,
      (d) => {
        this.counters.countSent(d.length);
        return migration.sendTo(d, this.challengeTarget) === true;
      },
      this.sealer,
    );
    this.challengeTarget = { address: path.address, port: path.port };
    this.challengeWriter.append(encodePathFrame(PATH_CHALLENGE, data));
    this.challengeWriter.flush();
  }

  /**
   * The peer proved it receives at `path`: the owner sends there from now on, and every unit in flight goes
   * again at once (what went to the old address since the peer left it is lost), with a fresh timeout.
   */
  private moveTo(path: PathAddress, now: number): void {
    this.migration!.moved({ address: path.address, port: path.port });
    for (const channel of RELIABLE) {
      const entries = this.outbox.senders[channel].dueForRetransmit(now, NOW);
      for (const entry of entries) entry.timeouts = 0;
      this.resend(channel, entries, Recovery.TIMEOUT);
    }
    this.opts.requestFlush();
  }

  service(now: number): void {
    if (this.closed) return;
    const health = this.health;
    const silent = health.silence(now);
    if (silent) return this.close(silent, false);
    const ping = health.tick(now);
    if (ping !== undefined) this.writer.append(encodeIdFrame(Frame.PING, ping));
    for (const channel of RELIABLE) {
      const stuck = health.stuck(this.outbox.senders[channel].oldest(), now);
      if (stuck) return this.disconnect(stuck);
    }
    if (now >= this.nextLossCheck) this.detectLosses(now);
    this.probeTail(now);
    // The timeout is the backstop; time-based detection replaced the three-newer-acks rule (reordering set it off).
    for (const channel of RELIABLE) {
      this.resend(channel, this.outbox.senders[channel].dueForRetransmit(now, health.timeoutFor), Recovery.TIMEOUT);
    }
    this.detector.decay(now, health.rto.smoothed);
    // A copy too old to help (its unit's next loss verdict is near) is dropped.
    if (this.copies.pending > 0) this.copies.expire(now, this.health.rto.smoothed ?? 0.1, this.isLive);
    this.inbox.expire(now);
    this.flushAcks();
  }

  /** End of a tick: packs the reliable units sent in it and owed acknowledgements, and sends the datagram being filled. */
  flushAcks(): void {
    if (this.closed) return;
    this.packQueued();
    const repeatAt = this.ackRepeatAt;
    const timed = repeatAt !== Infinity || this.copies.pending > 0 || this.nextLossCheck !== Infinity;
    const now = timed ? this.opts.clock() : 0;
    if (now >= this.nextLossCheck) this.detectLosses(now);
    // Repeats have a budget of their own, against all bytes sent: a side that only receives sends only acks.
    const repeating = now >= repeatAt && this.ackRepeatBytes <= REDUNDANCY_BUDGET * this.counters.bytesSent;
    if (now >= repeatAt) this.ackRepeatAt = Infinity;
    if (repeating) this.inbox.repeatGapAcks();
    const room = this.writer.room;
    // A datagram opened for repeats alone (when they fall due between ticks) is redundancy, header and tag too.
    const overhead = this.writer.pending ? 0 : HEADER_SIZE + TAG_SIZE;
    const acks = this.inbox.writeAcks(this.writer);
    this.counters.acksSent += acks;
    if (acks > 0 && this.inbox.ackedGap) {
      if (repeating) {
        const bytes = Math.max(0, room - this.writer.room) + overhead;
        this.ackRepeatBytes += bytes;
        this.counters.redundancyBytes += bytes;
      } else if (repeatAt === Infinity) this.ackRepeatAt = (now || this.opts.clock()) + this.copySpacing();
    }
    if (this.copies.pending > 0) this.copies.release(now, this.isLive, this.emitCopy);
    this.writer.flush();
    // A unit overtaken but not yet due is judged at its due time: asked for, not left to the next tick.
    // Asked at every flush while one is pending: the owner keeps one timer, for the earliest time any connection asked.
    if (this.nextLossCheck !== Infinity && this.requestWake !== undefined) this.requestWake(this.nextLossCheck);
  }

  addRttSample(seconds: number): void {
    this.health.addRttSample(seconds);
    this.detector.addRttSample(seconds);
  }

  stats(): ConnectionStats {
    const stats = this.health.stats(this.pendingReliable);
    stats.lossIn = this.lossIn.fraction(this.opts.clock());
    return stats;
  }

  close(reason: string, byRemote: boolean): void {
    if (this.closed) return;
    this.closedReason = reason;
    this.opts.onClosed(reason, byRemote);
  }

  disconnect(reason: string): void {
    if (this.closed) return;
    // What was sent in this tick leaves first, as it would have at the end of the tick.
    this.packQueued();
    this.writer.flush();
    // Three separate datagrams: the notice is unreliable.
    for (let i = 0; i < 3; i++) {
      this.writer.append(encodeDisconnectFrame(reason));
      this.writer.flush();
    }
    this.close(reason, false);
  }

  /** When to repeat the ACKs that named a gap (Infinity: none owed); see {@link NativeInbox.repeatGapAcks}. */
  private ackRepeatAt = Infinity;
  /** Bytes of repeated ACK frames sent (with the header and tag of datagrams they opened). */
  private ackRepeatBytes = 0;
  /** See {@link reliablePayloadBytes}. */
  private reliableBodyBytes = 0;
  /** Whether an ACK frame of the datagram being read freed anything. */
  private acked = false;
  /** When the acknowledgement being applied arrived; read by {@link sampleAcked}. */
  private ackedAt = 0;
  /**
   * Takes the samples each unit an acknowledgement frees gives: RTT, loss, the time-based detector's newest
   * delivered unit, and whether its retransmission was needed. One bound function, not a closure per ack.
   */
  private readonly sampleAcked = (entry: InFlight<OutboundUnit>) => {
    const now = this.ackedAt;
    const resent = this.resent.size === 0 ? undefined : this.resent.get(entry);
    if (resent !== undefined) this.resent.delete(entry);
    if (this.detector.acknowledged(entry, now, this.health.rto.smoothed, resent?.cause)) {
      this.counters.spuriousRetransmits += 1;
      return this.health.acknowledgedEarlier(entry, now);
    }
    if (resent === undefined || resent.copies === 0) return this.health.acknowledged(entry, now);
    this.health.acknowledged(entry, now, resent.copies, resent.copyAttempts === entry.attempts);
  };

  private acknowledge(channel: ReliableChannel, next: number, bitmap: Uint8Array, now: number): void {
    const sender = this.outbox.senders[channel];
    this.ackedAt = now;
    if (sender.acknowledgeCumulative(next, bitmap, this.sampleAcked) === 0) return;
    this.probes = 0;
    this.lastProgress = now;
    this.acked = true;
  }

  /**
   * After a datagram's frames: losses are judged once all of its ACK frames are applied (an ACK of one channel
   * read before the other's, in the same datagram, would find the other's units overtaken), then the freed
   * bytes let either channel's queue move (they share the peer's receive window).
   */
  private afterAcks(now: number): void {
    this.acked = false;
    this.detectLosses(now);
    if (this.outbox.flushAllSendable(now) > 0) this.lastReliableSend = now;
    this.opts.requestFlush();
  }

  /** Packs reliable units queued this tick, with one clock read: they are timed from when they leave. */
  private packQueued(): void {
    if (!this.outbox.hasQueued) return;
    const now = this.opts.clock();
    const count = this.outbox.flushAllSendable(now);
    // A burst is timed from its end (see NativeOutbox.restamp): so is the probe timeout.
    if (count > 0) this.lastReliableSend = count >= 32 ? this.opts.clock() : now;
  }

  /** Units found lost by this pass, per channel; reused. */
  private readonly lost: Record<ReliableChannel, InFlight<OutboundUnit>[]> = Object.fromEntries(
    RELIABLE.map((c) => [c, []]),
  ) as unknown as Record<ReliableChannel, InFlight<OutboundUnit>[]>;
  /** State of the scan in progress, read by {@link visitForLoss}. */
  private scanNow = 0;
  private scanDelay = 0;
  private scanHighest: number | undefined;
  private scanOut: InFlight<OutboundUnit>[] = [];

  /** Checks one unit sent once against the newest delivered; false stops the scan at the first sent after it. */
  private readonly visitForLoss = (entry: InFlight<OutboundUnit>): boolean => {
    if (entry.attempts > 1) return true; // re-sent units are checked from `resent`, in their send order
    const detector = this.detector;
    if (entry.lastSent > detector.newestDeliveredSent) return false;
    // Units of one flush share a send time: one behind an acknowledged later sequence was overtaken.
    const highest = this.scanHighest;
    const tie = highest !== undefined && sequenceDiff(highest, entry.sequence) > 0;
    const verdict = detector.verdict(entry, this.scanNow, this.scanDelay, tie);
    if (verdict === true) this.scanOut.push(entry);
    else if (verdict !== undefined && verdict < this.nextLossCheck) this.nextLossCheck = verdict;
    return true;
  };

  /** Time-based loss detection over both channels: re-sends each unit that ran out of reorder allowance. */
  private detectLosses(now: number): void {
    const detector = this.detector;
    if (detector.newestDeliveredSent === -Infinity) return;
    this.nextLossCheck = Infinity;
    this.scanNow = now;
    const delay = (this.scanDelay = detector.lossDelay(this.health.rto.smoothed));
    for (const channel of RELIABLE) {
      const sender = this.outbox.senders[channel];
      if (sender.inFlightCount === 0) continue;
      this.scanHighest = sender.highestAcknowledged;
      this.scanOut = this.lost[channel];
      sender.scan(this.visitForLoss);
    }
    for (const [entry, resent] of this.resent) {
      if (entry.lastSent >= detector.newestDeliveredSent) break;
      const verdict = detector.verdict(entry, now, delay, false);
      if (verdict === true) this.lost[resent.channel].push(entry);
      else if (verdict !== undefined && verdict < this.nextLossCheck) this.nextLossCheck = verdict;
    }
    for (const channel of RELIABLE) {
      const lost = this.lost[channel];
      if (lost.length === 0) continue;
      for (const entry of lost) {
        entry.lastSent = now;
        entry.attempts += 1;
      }
      this.resend(channel, lost, Recovery.RACK);
      lost.length = 0;
    }
  }

  /** Tail loss probe: nothing acknowledged for a probe timeout after the newest send, so the newest unit goes again. */
  private probeTail(now: number): void {
    const rto = this.health.rto;
    const since = Math.max(this.lastReliableSend, this.lastProgress);
    if (now < since + this.detector.probeTimeout(rto.smoothed, rto.jitter, this.probes)) return;
    let newest: InFlight<OutboundUnit> | undefined;
    let newestChannel: ReliableChannel | undefined;
    for (const channel of RELIABLE) {
      const entry = this.outbox.senders[channel].newest();
      if (entry !== undefined && (newest === undefined || entry.lastSent >= newest.lastSent)) {
        newest = entry;
        newestChannel = channel;
      }
    }
    if (newest === undefined || newestChannel === undefined) return;
    newest.lastSent = now;
    newest.attempts += 1;
    this.probes += 1;
    this.resend(newestChannel, [newest], Recovery.PROBE);
  }

  private resend(channel: ReliableChannel, entries: readonly InFlight<OutboundUnit>[], cause: Recovery): void {
    if (entries.length === 0) return;
    this.counters.retransmits += entries.length;
    this.outbox.resend(channel, entries);
    const spacing = this.copySpacing();
    for (const entry of entries) {
      const known = this.resent.get(entry);
      // Re-inserted, so the map stays in order of last transmission.
      if (known !== undefined) this.resent.delete(entry);
      this.resent.set(entry, {
        channel,
        cause,
        copies: known?.copies ?? 0,
        copyAttempts: known?.copyAttempts ?? 0,
      });
      // Only a unit known lost (a later one arrived) gets a copy: a probe or a timeout may be answered by a late
      // ack (a stalled peer, a slow path), and a link that loses nothing then costs nothing.
      if (cause === Recovery.RACK) this.copies.plan(channel, entry, entry.lastSent + spacing);
    }
    this.lastReliableSend = entries[entries.length - 1]!.lastSent;
  }

  /**
   * How long a redundant copy waits after its retransmission: it leaves in the first datagram after that (the
   * next batch of acks or the next tick, a few ms later), not back to back with the retransmission, whose fate it
   * would share in a burst of loss.
   */
  private copySpacing(): number {
    return Math.min(0.002, (this.health.rto.smoothed ?? 0.1) / 16);
  }

  /** Whether a copy of `entry` can still help: it is in flight on `channel`. */
  private readonly isLive = (channel: ReliableChannel, entry: InFlight<OutboundUnit>): boolean =>
    this.outbox.senders[channel].entryAt(entry.sequence) === entry;

  /**
   * Sends a copy in the datagram being filled (sharing its room when it fits), within the budget; returns its bytes,
   * with the header and tag of a datagram it opened.
   */
  private readonly emitCopy = (channel: ReliableChannel, entry: InFlight<OutboundUnit>): number => {
    // A copy that opens a datagram of its own (due between ticks) costs that datagram's header and tag too.
    const size = this.outbox.frameSize(channel, entry) + (this.writer.pending ? 0 : HEADER_SIZE + TAG_SIZE);
    if (!this.copies.affords(size, this.outbox.budget.admitted)) return 0;
    this.outbox.packCopy(channel, entry);
    this.counters.redundancyBytes += size;
    const resent = this.resent.get(entry);
    if (resent !== undefined) {
      resent.copies += 1;
      resent.copyAttempts = entry.attempts;
    }
    return size;
  };

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

/** The default MTU when none was negotiated. */
export const DEFAULT_NATIVE_MTU = Native.DEFAULT_MTU;
