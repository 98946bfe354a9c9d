import { RELIABLE_CHANNELS, type ReliableChannel } from '../../../../shared/net/channel';
import { sequenceDiff } from '../../../../shared/net/sequenceMath';
import type { ConnectionHealth } from '../../v1/connectionHealth';
import type { InFlight } from '../../v1/reliableSender';
import type { TrafficCounters } from '../../v1/stats';
import { LossDetector, Recovery } from './lossDetector';
import type { NativeOutbox, OutboundUnit } from '../nativeOutbox';
import { Native } from '../nativeWire';
import type { PacketWriter } from '../packetWriter';
import { RedundantCopies } from './redundantCopies';

// Module-level copies of imported constants: under a CommonJS transpiler each use of an imported binding is a getter.
const { HEADER_SIZE, TAG_SIZE } = Native;
const RELIABLE = RELIABLE_CHANNELS;
/** Every in-flight unit is due: the resend after a move to a proven address. */
const NOW = () => 0;

/** Redundant copies may add at most this fraction of the reliable bytes first sent. */
export const REDUNDANCY_BUDGET = 0.15;

/** What recovery remembers of a unit it re-sent, until its ack. */
interface Resent {
  channel: ReliableChannel;
  cause: Recovery;
  /** Redundant copies sent of it. */
  copies: number;
  /** Its `attempts` when the last copy left: equal to attempts now means the copy rode beside the last transmission. */
  copyAttempts: number;
}

/** What a {@link NativeRecovery} works on: the connection's send side, its health and its counters. */
export interface RecoveryParts {
  outbox: NativeOutbox;
  writer: PacketWriter;
  health: ConnectionHealth;
  counters: TrafficCounters;
  clock: () => number;
}

/**
 * The sender's loss recovery of one native connection (nothing of it is on the wire): samples from acknowledgements,
 * time-based loss detection over both reliable channels, the tail loss probe, the timeout backstop, and redundant
 * copies of units known lost, within {@link REDUNDANCY_BUDGET}.
 */
export class NativeRecovery {
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
  nextLossCheck = Infinity;
  /** When the acknowledgement being applied arrived; read by {@link sampleAcked}. */
  private ackedAt = 0;
  /** Units found lost by this pass, per channel; reused. */
  private readonly lost: Record<ReliableChannel, InFlight<OutboundUnit>[]> = Object.fromEntries(
    RELIABLE.map((c) => [c, []]),
  ) as unknown as Record<ReliableChannel, InFlight<OutboundUnit>[]>;
  /** State of the scan in progress, read by {@link visitForLoss}. */
  private scanNow = 0;
  private scanDelay = 0;
  private scanHighest: number | undefined;
  private scanOut: InFlight<OutboundUnit>[] = [];
  private readonly outbox: NativeOutbox;
  private readonly writer: PacketWriter;
  private readonly health: ConnectionHealth;
  private readonly counters: TrafficCounters;
  private readonly clock: () => number;

  constructor(parts: RecoveryParts) {
    this.outbox = parts.outbox;
    this.writer = parts.writer;
    this.health = parts.health;
    this.counters = parts.counters;
    this.clock = parts.clock;
  }

  /** The time-based loss detector's reorder window now, seconds (diagnostics). */
  get reorderWindow(): number {
    return this.detector.reorderWindow();
  }

  /** Whether a redundant copy waits to be sent. */
  get copiesPending(): boolean {
    return this.copies.pending > 0;
  }

  /** An RTT sample from heartbeats: the detector's minimum RTT learns from it too. */
  addRttSample(seconds: number): void {
    this.detector.addRttSample(seconds);
  }

  /** Applies one ACK frame of `channel`; true when it freed anything (losses are then judged after the datagram). */
  acknowledge(channel: ReliableChannel, next: number, bitmap: Uint8Array, now: number): boolean {
    this.ackedAt = now;
    if (this.outbox.senders[channel].acknowledgeCumulative(next, bitmap, this.sampleAcked) === 0) return false;
    this.probes = 0;
    this.lastProgress = now;
    return true;
  }

  /** After a datagram whose acknowledgements freed something: losses judged, and the queues move into the room. */
  afterAcks(now: number): void {
    this.detectLosses(now);
    if (this.outbox.flushAllSendable(now) > 0) this.lastReliableSend = now;
  }

  /** Packs reliable units queued this tick, with one clock read: they are timed from when they leave. */
  packQueued(): void {
    if (!this.outbox.hasQueued) return;
    const now = this.clock();
    const count = this.outbox.flushAllSendable(now);
    // A burst is timed from its end (see NativeOutbox.restamp): so is the probe timeout.
    if (count > 0) this.lastReliableSend = count >= 32 ? this.clock() : now;
  }

  /** The service tick's share: due verdicts, the tail probe, timeouts, the window's decay, stale copies. */
  service(now: number): void {
    const health = this.health;
    if (now >= this.nextLossCheck) this.detectLosses(now);
    this.probeTail(now);
    // The timeout is the backstop; time-based detection replaced the three-newer-acks rule (reordering set it off).
    for (const channel of RELIABLE) {
      this.resend(channel, this.outbox.senders[channel].dueForRetransmit(now, health.timeoutFor), Recovery.TIMEOUT);
    }
    this.detector.decay(now, health.rto.smoothed);
    // A copy too old to help (its unit's next loss verdict is near) is dropped.
    if (this.copies.pending > 0) this.copies.expire(now, health.rto.smoothed ?? 0.1, this.isLive);
  }

  /** At a flush: verdicts that fell due since (`now` read only when something is timed). */
  judgeDue(now: number): void {
    if (now >= this.nextLossCheck) this.detectLosses(now);
  }

  /** At a flush: the redundant copies due, in the datagram being filled. */
  releaseCopies(now: number): void {
    if (this.copies.pending > 0) this.copies.release(now, this.isLive, this.emitCopy);
  }

  /** The peer moved to a proven address: every unit in flight goes again at once, with a fresh timeout. */
  resendAllNow(now: number): void {
    for (const channel of RELIABLE) {
      const entries = this.outbox.senders[channel].dueForRetransmit(now, NOW);
      for (const entry of entries) entry.timeouts = 0;
      this.resend(channel, entries, Recovery.TIMEOUT);
    }
  }

  /**
   * How long a redundant copy (or a repeated ACK) waits after its retransmission: it leaves in the first datagram
   * after that (the next batch of acks or the next tick, a few ms later), not back to back with the retransmission,
   * whose fate it would share in a burst of loss.
   */
  copySpacing(): number {
    return Math.min(0.002, (this.health.rto.smoothed ?? 0.1) / 16);
  }

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
}
