import type { TrafficCounters } from '../../v1/stats';
import type { NativeInbox } from '../nativeInbox';
import { Native } from '../nativeWire';
import type { PacketWriter } from '../packetWriter';
import { REDUNDANCY_BUDGET } from './nativeRecovery';

const OPENED_DATAGRAM = Native.HEADER_SIZE + Native.TAG_SIZE;

/**
 * Writes a connection's owed ACK frames, and repeats the ones that named a gap a little later (one lost ACK must not
 * delay the sender's loss detection), within a redundancy budget of their own against all bytes sent: a side that
 * only receives sends only acks.
 */
export class AckRepeats {
  /** When to repeat the ACKs that named a gap (Infinity: none owed); see {@link NativeInbox.repeatGapAcks}. */
  at = Infinity;
  /** Bytes of repeated ACK frames sent (with the header and tag of datagrams they opened). */
  private bytes = 0;

  constructor(
    private readonly inbox: NativeInbox,
    private readonly writer: PacketWriter,
    private readonly counters: TrafficCounters,
    private readonly clock: () => number,
  ) {}

  /**
   * Puts the owed ACKs in the datagram being filled; `now` is 0 when the caller read no clock (nothing timed),
   * `spacing` how long after a gap was named its repeat is due.
   */
  write(now: number, spacing: () => number): void {
    const { inbox, writer, counters } = this;
    const repeatAt = this.at;
    const repeating = now >= repeatAt && this.bytes <= REDUNDANCY_BUDGET * counters.bytesSent;
    if (now >= repeatAt) this.at = Infinity;
    if (repeating) inbox.repeatGapAcks();
    const room = writer.room;
    // A datagram opened for repeats alone (when they fall due between ticks) is redundancy, header and tag too.
    const overhead = writer.pending ? 0 : OPENED_DATAGRAM;
    const acks = inbox.writeAcks(writer);
    counters.acksSent += acks;
    if (acks === 0 || !inbox.ackedGap) return;
    if (repeating) {
      const bytes = Math.max(0, room - writer.room) + overhead;
      this.bytes += bytes;
      counters.redundancyBytes += bytes;
    } else if (repeatAt === Infinity) this.at = (now || this.clock()) + spacing();
  }
}
