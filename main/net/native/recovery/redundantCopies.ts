import type { ReliableChannel } from '../../../../shared/net/channel';
import type { InFlight } from '../../v1/reliableSender';

/** One planned second copy of a retransmitted unit. */
interface PlannedCopy<T> {
  channel: ReliableChannel;
  entry: InFlight<T>;
  /** The unit's `attempts` when it was re-sent: a later retransmission makes this copy moot. */
  attempts: number;
  /** Earliest time it may leave: a little after the retransmission, so one burst does not take both. */
  due: number;
}

/** Tunables of {@link RedundantCopies}. */
export interface RedundantCopiesOptions {
  /** Most redundancy bytes, as a fraction of the reliable bytes first sent (the budget). */
  budget: number;
  /** Copies planned at once; more are not planned (a loss storm is the timeout's business). */
  maxPlanned?: number;
}

/**
 * Plans a second copy of each retransmitted unit, so that losing the retransmission too does not cost another
 * round trip. A copy rides in the first datagram leaving after it is due (sharing its room when it fits). Total copy
 * bytes stay within `budget` × the reliable bytes first sent; with no retransmission there is no copy at all.
 */
export class RedundantCopies<T> {
  private planned: PlannedCopy<T>[] = [];
  /** Bytes of copies sent. */
  bytes = 0;
  /** Copies sent. */
  count = 0;
  private readonly maxPlanned: number;

  constructor(private readonly options: RedundantCopiesOptions) {
    this.maxPlanned = options.maxPlanned ?? 1024;
  }

  /** Copies waiting to leave. */
  get pending(): number {
    return this.planned.length;
  }

  /** Plans a copy of `entry`, just re-sent, to leave at `due` or later. */
  plan(channel: ReliableChannel, entry: InFlight<T>, due: number): void {
    if (this.planned.length >= this.maxPlanned) return;
    this.planned.push({ channel, entry, attempts: entry.attempts, due });
  }

  /** Whether `size` more copy bytes fit the budget, given `payload` reliable bytes first sent so far. */
  affords(size: number, payload: number): boolean {
    return this.bytes + size <= this.options.budget * payload;
  }

  /**
   * Sends the copies due by `now` through `emit`, which returns the bytes it wrote or 0 when it would not (over
   * budget: the copy stays planned until it expires). Drops copies of units acknowledged or re-sent since.
   */
  release(
    now: number,
    isLive: (channel: ReliableChannel, entry: InFlight<T>) => boolean,
    emit: (channel: ReliableChannel, entry: InFlight<T>) => number,
  ): void {
    if (this.planned.length === 0) return;
    const keep: PlannedCopy<T>[] = [];
    for (const copy of this.planned) {
      if (copy.entry.attempts !== copy.attempts || !isLive(copy.channel, copy.entry)) continue;
      if (now < copy.due) {
        keep.push(copy);
        continue;
      }
      const written = emit(copy.channel, copy.entry);
      if (written === 0) {
        keep.push(copy);
        continue;
      }
      this.bytes += written;
      this.count += 1;
    }
    this.planned = keep;
  }

  /** Forgets copies whose unit will not be helped by one any more (acknowledged or re-sent), and those too old. */
  expire(now: number, maxAge: number, isLive: (channel: ReliableChannel, entry: InFlight<T>) => boolean): void {
    if (this.planned.length === 0) return;
    this.planned = this.planned.filter(
      (c) => c.entry.attempts === c.attempts && now - c.due <= maxAge && isLive(c.channel, c.entry),
    );
  }
}
