import {
  CHANNEL_COUNT,
  CHANNEL_POLICY,
  RELIABLE_CHANNELS,
  type Channel,
  type ReliableChannel,
} from '../../../../shared/net/channel';
import { ReliableSender, type InFlight } from '../../v1/reliableSender';
import { FlightBudget } from '../../v1/flightBudget';
import { SendQueueFullError } from '../../errors';
import { encodeFragmentFrame, messageFrameSize } from '../wire/nativeFrames';
import { MAX_FRAME_OVERHEAD, Native } from '../wire/nativeWire';
import type { PacketWriter } from '../wire/packetWriter';
import { splitMessage } from './fragmenter';

// Module-level copies of imported constants and functions: under a CommonJS transpiler (tsx, vitest) each
// use of an imported binding is a getter call, which shows in the per-message profile.
const FRAME_OVERHEAD = MAX_FRAME_OVERHEAD;
const POLICY = CHANNEL_POLICY;
const RELIABLE = RELIABLE_CHANNELS;

/** Units handed over in one go from which the send time is re-read. */
const BURST = 32;

/**
 * What a reliable sender keeps per unit: a whole message's body (its frame is written straight into the
 * datagram, with the unit's sequence, each time it is sent) or a fragment's ready-made frame.
 */
export type OutboundUnit = Uint8Array | FragmentFrame;

/** A fragment's frame, built once with the sequence it carries and re-sent as is. */
export class FragmentFrame {
  constructor(readonly frame: Uint8Array) {}
}

/** Options of {@link NativeOutbox}. */
export interface NativeOutboxOptions {
  writer: PacketWriter;
  /** Units (messages or fragments) that may wait behind the send window, per channel. */
  maxQueued: number;
  /** Seconds; read after a burst so its units are timed from when they actually left. */
  clock: () => number;
  /** Bytes of reliable units the peer lets us keep unacknowledged (its advertised receive window). */
  peerRecvWindow: number;
}

/** A unit's bytes against the flight budget: what it occupies in a datagram. */
function weigh(unit: OutboundUnit): number {
  return unit instanceof FragmentFrame ? unit.frame.length : unit.length + FRAME_OVERHEAD;
}

/**
 * The sending half of a native connection: numbers and fragments messages, keeps reliable units
 * until acknowledged, and packs frames into the writer's datagrams.
 */
export class NativeOutbox {
  readonly senders: Record<ReliableChannel, ReliableSender<OutboundUnit>>;
  /** Body bytes one fragment carries, so a fragment frame always fits one datagram. */
  readonly pieceSize: number;
  /** Per channel id: the last number sent; a sequenced channel's message sequence, another's fragmented-message id. */
  private readonly lastNumber = new Uint32Array(CHANNEL_COUNT);

  /** Reliable bytes in flight, both channels, against the peer's receive window. */
  readonly budget: FlightBudget;
  /** The writer, held here: one object fewer to reach per send (each peer's is cold in a broadcast). */
  private readonly writer: PacketWriter;
  /**
   * False when no reliable unit can be queued: set by every enqueue, cleared once {@link hasQueued} finds both
   * queues empty. Every flush asks, and reading both senders' backlogs cost cold loads per peer per datagram.
   */
  private mayHaveQueued = false;

  constructor(private readonly options: NativeOutboxOptions) {
    this.writer = options.writer;
    const budget = (this.budget = new FlightBudget(options.peerRecvWindow));
    const senders: Partial<Record<ReliableChannel, ReliableSender<OutboundUnit>>> = {};
    for (const channel of RELIABLE) {
      senders[channel] = new ReliableSender<OutboundUnit>({
        maxQueued: options.maxQueued,
        window: Native.SEND_WINDOW,
        ackReach: Native.SEND_WINDOW,
        budget,
        weigh,
      });
    }
    this.senders = senders as Record<ReliableChannel, ReliableSender<OutboundUnit>>;
    this.pieceSize = options.writer.maxFrame - FRAME_OVERHEAD;
  }

  /** Reliable units not yet acknowledged plus those queued behind the window. */
  get pendingReliable(): number {
    let pending = 0;
    for (const c of RELIABLE) pending += this.senders[c].inFlightCount + this.senders[c].queuedCount;
    return pending;
  }

  /** Whether reliable units wait to be moved into the window and packed. */
  get hasQueued(): boolean {
    if (!this.mayHaveQueued) return false;
    const channels = RELIABLE;
    for (let i = 0; i < channels.length; i++) if (this.senders[channels[i]!].queuedCount > 0) return true;
    this.mayHaveQueued = false;
    return false;
  }

  /**
   * Queues a reliable message (packed at the end of the tick by {@link flushSendable}, timed from then) or
   * packs an unreliable one; throws {@link SendQueueFullError} when a reliable queue is full.
   */
  send(body: Uint8Array, channel: Channel): void {
    const policy = POLICY[channel]!;
    if (policy.reliable) {
      this.enqueueReliable(channel as ReliableChannel, body);
      return;
    }
    const writer = this.writer;
    const numbers = this.lastNumber;
    const sequenced = policy.sequenced;
    const seq = sequenced ? (numbers[channel] = (numbers[channel]! + 1) >>> 0) : 0;
    if (body.length + FRAME_OVERHEAD <= writer.maxFrame) {
      writer.appendMessage(channel, seq, body);
      return;
    }
    // Unreliable fragments share one id: a sequenced channel's number, or the channel's message counter.
    const id = sequenced ? seq : (numbers[channel] = (numbers[channel]! + 1) >>> 0);
    const pieces = splitMessage(body, this.pieceSize);
    pieces.forEach((piece, index) => writer.append(encodeFragmentFrame(channel, id, index, pieces.length, piece)));
  }

  /** Packs what both reliable channels can move into the window now (they share the peer's receive window); returns how many. */
  flushAllSendable(now: number): number {
    const channels = RELIABLE;
    let count = 0;
    for (let i = 0; i < channels.length; i++) count += this.flushSendable(channels[i]!, now);
    return count;
  }

  /** Moves queued units into the window while it has room, and packs them; returns how many. */
  flushSendable(channel: ReliableChannel, now: number): number {
    const sender = this.senders[channel];
    const count = sender.admitSendable(now);
    if (count === 0) return 0;
    const first = sender.windowEnd - count;
    for (let i = 0; i < count; i++) this.pack(channel, sender.entryAt(first + i)!);
    // No array of the admitted units on the per-tick path; a burst is rare enough to build one.
    if (count >= BURST)
      this.restamp(
        Array.from({ length: count }, (_, i) => sender.entryAt(first + i)!),
        true,
      );
    return count;
  }

  /** Bytes the unit's frame takes in a datagram. */
  frameSize(channel: ReliableChannel, entry: InFlight<OutboundUnit>): number {
    const unit = entry.body;
    return unit instanceof FragmentFrame ? unit.frame.length : messageFrameSize(channel, entry.sequence, unit.length);
  }

  /** Packs units of `channel` again (retransmission). */
  resend(channel: ReliableChannel, entries: readonly InFlight<OutboundUnit>[]): void {
    for (const entry of entries) this.pack(channel, entry);
    this.restamp(entries, false);
  }

  /** Packs a redundant copy of a unit into the datagram being filled; its timing is left alone. */
  packCopy(channel: ReliableChannel, entry: InFlight<OutboundUnit>): void {
    this.pack(channel, entry);
  }

  private pack(channel: ReliableChannel, entry: InFlight<OutboundUnit>): void {
    const unit = entry.body;
    if (unit instanceof FragmentFrame) this.writer.append(unit.frame);
    else this.writer.appendMessage(channel, entry.sequence, unit);
  }

  /**
   * A large burst (a 1 MiB message is ~900 datagrams) can take longer than the retransmission
   * timeout to hand to the socket: its units are timed from the end of the burst, or the timer
   * would find them all overdue before a single ack could be read.
   */
  private restamp(entries: readonly InFlight<OutboundUnit>[], first: boolean): void {
    if (entries.length < BURST) return;
    const end = this.options.clock();
    for (const entry of entries) {
      entry.lastSent = end;
      if (first) entry.firstSent = end;
    }
  }

  private enqueueReliable(channel: ReliableChannel, body: Uint8Array): void {
    const sender = this.senders[channel];
    this.mayHaveQueued = true;
    // A whole message keeps its body (serialized bodies are never reused); fragments keep their frames.
    if (body.length + FRAME_OVERHEAD <= this.writer.maxFrame) {
      if (!sender.canQueue(1)) throw new SendQueueFullError(sender.maxQueued);
      sender.enqueue(body);
      return;
    }
    const pieces = splitMessage(body, this.pieceSize);
    // All or nothing: a message queued in part would leave a hole no retransmission can fill.
    if (!sender.canQueue(pieces.length)) throw new SendQueueFullError(sender.maxQueued);
    pieces.forEach((piece, index) =>
      sender.enqueue(
        new FragmentFrame(encodeFragmentFrame(channel, sender.nextEnqueuedSequence, index, pieces.length, piece)),
      ),
    );
  }
}
