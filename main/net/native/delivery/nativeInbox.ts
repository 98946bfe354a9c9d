import {
  CHANNEL_COUNT,
  CHANNEL_POLICY,
  RELIABLE_CHANNELS,
  type Channel,
  type ReliableChannel,
} from '../../../../shared/net/channel';
import { ReliableReceiver } from '../../v1/reliableReceiver';
import { DropReason } from '../../v1/stats';
import { Native } from '../wire/nativeWire';
import { Reassembler } from './reassembler';

// Module-level copies of imported constants and functions: under a CommonJS transpiler (tsx, vitest) each
// use of an imported binding is a getter call, which shows in the per-message profile.
const POLICY = CHANNEL_POLICY;
const RELIABLE = RELIABLE_CHANNELS;
/** The channels whose partial messages expire: the unreliable ones. */
const EXPIRING = CHANNEL_POLICY.filter((p) => !p.reliable).map((p) => p.id);

/** What the inbox reports to its connection. */
export interface NativeInboxEvents {
  deliver(body: Uint8Array, channel: Channel): void;
  drop(reason: DropReason): void;
  duplicate(): void;
  /** The peer broke the protocol in a way that cannot be skipped (a reliable message that cannot be rebuilt). */
  fail(reason: string): void;
}

/** Where {@link NativeInbox.writeAcks} puts the acknowledgements owed (the connection's packet writer). */
export interface AckWriter {
  /** The frame carries the first `length` bytes of `bitmap`. */
  appendAck(channel: number, next: number, bitmap: Uint8Array, length: number): void;
}

/** Limits of {@link NativeInbox}. */
export interface NativeInboxOptions {
  /** Largest message rebuilt from fragments, bytes. */
  maxMessageSize: number;
  /** Largest unreliable message rebuilt from fragments, bytes. */
  maxUnreliableSize: number;
  /** Bytes of partial messages held per reliable channel. */
  reassemblyBytes: number;
  /** Bytes fragments carry at least (the smallest MTU's piece), to bound the fragment count. */
  pieceSize: number;
  /** Seconds an incomplete unreliable message is kept. */
  unreliableExpiry: number;
}

/** How far ahead of the newest delivered a sequenced message may be; a sender never skips this many. */
export const SEQUENCED_REACH = 2 ** 20;

/** A received fragment of a reliable message; a whole message travels as its bare body. */
class FragmentUnit {
  constructor(
    readonly seq: number,
    readonly index: number,
    readonly count: number,
    readonly body: Uint8Array,
  ) {}
}

type Unit = Uint8Array | FragmentUnit;

/**
 * The receiving half of a native connection: reliable windows, the sequenced channel's
 * staleness filter, reassembly of fragments, and the acknowledgements owed.
 */
export class NativeInbox {
  private readonly receivers = {} as Record<ReliableChannel, ReliableReceiver<Unit>>;
  /** One per channel id: reliable channels' hold their partial messages until complete, others' expire. */
  private readonly reassemblers: Reassembler[];
  private readonly ackDirty = {} as Record<ReliableChannel, boolean>;
  /** Whether any channel's ACK is owed: every flush asks, and most (a broadcast's) owe none. */
  private acksOwed = false;
  /** Per channel: whether the last ACK written named a gap (units missing below received ones). */
  private readonly ackGap = {} as Record<ReliableChannel, boolean>;
  private readonly bitmap = new Uint8Array(Native.MAX_ACK_BITMAP);
  /** Per channel id: the newest sequence a sequenced channel delivered, -1 before the first. */
  private readonly newestSequenced = new Float64Array(CHANNEL_COUNT).fill(-1);
  /** Time of the datagram being applied, for reassembly; saves a closure per unit. */
  private now = 0;
  /** Per reliable channel, made once: a closure per unit showed in the profile. */
  private readonly deliverers = {} as Record<ReliableChannel, (unit: Unit) => void>;

  constructor(
    options: NativeInboxOptions,
    private readonly events: NativeInboxEvents,
  ) {
    const window = Native.SEND_WINDOW;
    for (const channel of RELIABLE) {
      this.receivers[channel] = new ReliableReceiver({ ordered: POLICY[channel]!.ordered, window });
      this.ackDirty[channel] = false;
      this.ackGap[channel] = false;
      this.deliverers[channel] = (unit) => this.deliverReliable(channel, unit);
    }
    // An honest sender can leave, at worst, one message's received prefix plus a full window of later
    // units waiting behind a hole: below that, a lossy but honest stream could be refused.
    const honestWorstCase = options.maxMessageSize + window * options.pieceSize;
    const reliable = () =>
      new Reassembler({
        maxBytes: Math.max(options.reassemblyBytes, honestWorstCase),
        maxMessages: window,
        maxFragments: Math.ceil(options.maxMessageSize / options.pieceSize),
      });
    const unreliable = () =>
      new Reassembler({
        maxBytes: Math.min(options.reassemblyBytes, 4 * options.maxUnreliableSize),
        maxMessages: 64,
        maxFragments: Math.ceil(options.maxUnreliableSize / options.pieceSize),
        expireAfter: options.unreliableExpiry,
      });
    this.reassemblers = CHANNEL_POLICY.map((p) => (p.reliable ? reliable() : unreliable()));
  }

  /** A MESSAGE frame (count 1) or FRAGMENT frame arrived. */
  unit(channel: Channel, seq: number, index: number, count: number, body: Uint8Array, now: number): void {
    const policy = POLICY[channel]!;
    if (policy.reliable) {
      this.now = now;
      this.reliable(channel as ReliableChannel, seq, count === 1 ? body : new FragmentUnit(seq, index, count, body));
      return;
    }
    if (policy.sequenced && !this.isFresh(channel, seq)) return this.events.drop(DropReason.STALE);
    if (count === 1) return this.deliverUnreliable(channel, seq, body);
    const result = this.reassemblers[channel]!.add(seq, index, count, body, now);
    if (result.kind === 'complete') this.deliverUnreliable(channel, seq, result.body);
    else if (result.kind === 'rejected') this.events.drop(DropReason.BAD_FRAGMENT);
  }

  /** Writes ACK frames for the channels that received something since the last call; returns how many. */
  writeAcks(writer: AckWriter): number {
    if (!this.acksOwed) return 0;
    let written = 0;
    for (const channel of RELIABLE) {
      if (!this.ackDirty[channel]) continue;
      this.ackDirty[channel] = false;
      const receiver = this.receivers[channel];
      const length = receiver.fillAckBitmap(this.bitmap);
      this.ackGap[channel] = length > 0;
      writer.appendAck(channel, receiver.nextExpected, this.bitmap, length);
      written += 1;
    }
    this.acksOwed = false;
    return written;
  }

  /** Whether an ACK written last named a gap: the sender learns of a loss from it, so losing it costs a round trip. */
  get ackedGap(): boolean {
    for (const channel of RELIABLE) if (this.ackGap[channel]) return true;
    return false;
  }

  /** Owes again the ACKs that named a gap (a repeat, so one lost ACK does not delay the sender's loss detection). */
  repeatGapAcks(): void {
    for (const channel of RELIABLE) {
      if (!this.ackGap[channel]) continue;
      this.ackDirty[channel] = true;
      this.acksOwed = true;
    }
  }

  /** Drops unreliable partial messages that waited too long. */
  expire(now: number): void {
    for (const channel of EXPIRING) this.reassemblers[channel]!.expire(now);
  }

  /** Bytes held in partial messages, all channels. */
  get bufferedBytes(): number {
    return this.reassemblers.reduce((n, r) => n + r.bufferedBytes, 0);
  }

  private reliable(channel: ReliableChannel, seq: number, unit: Unit): void {
    // Whatever became of it, the sender needs to hear: a duplicate means our ack was lost.
    this.ackDirty[channel] = true;
    this.acksOwed = true;
    const status = this.receivers[channel].receive(seq, unit, this.deliverers[channel]);
    if (status === 'duplicate') this.events.duplicate();
    else if (status === 'out-of-window') this.events.drop(DropReason.OUT_OF_WINDOW);
  }

  private deliverReliable(channel: ReliableChannel, unit: Unit): void {
    if (!(unit instanceof FragmentUnit)) return this.events.deliver(unit, channel);
    const key = (unit.seq - unit.index) >>> 0;
    const result = this.reassemblers[channel]!.add(key, unit.index, unit.count, unit.body, this.now);
    if (result.kind === 'complete') this.events.deliver(result.body, channel);
    else if (result.kind === 'rejected')
      this.events.fail(`reliable message could not be reassembled (${result.reason})`);
  }

  private deliverUnreliable(channel: Channel, seq: number, body: Uint8Array): void {
    if (POLICY[channel]!.sequenced) {
      // A later message may have completed while this one's fragments were in flight.
      if (!this.isFresh(channel, seq)) return this.events.drop(DropReason.STALE);
      this.newestSequenced[channel] = seq;
    }
    this.events.deliver(body, channel);
  }

  private isFresh(channel: Channel, seq: number): boolean {
    const newest = this.newestSequenced[channel]!;
    if (newest < 0) return true;
    // Newer, but not absurdly: one forged jump of 2^31 would otherwise make every real message look stale.
    const ahead = (seq - newest) >>> 0;
    return ahead !== 0 && ahead < SEQUENCED_REACH;
  }
}
