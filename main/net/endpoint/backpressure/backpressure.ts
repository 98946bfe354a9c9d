import { Channel } from '../../../../shared/net/channel';
import type { Link } from '../../v1/link';
import { DrainList } from './drainList';

const { RELIABLE_ORDERED, RELIABLE_UNORDERED } = Channel;

/** What reliable sends are held back for: a server's peer, or a client's connection. */
export interface Drainable {
  /** A send returned false and `onDrain` has not named it since. */
  needsDrain: boolean;
  readonly connection: Link;
}

/** The backlog marks, in reliable units waiting or in flight. */
export interface WaterMarks {
  highWaterMark: number;
  lowWaterMark: number;
}

/**
 * Backpressure as a Node stream's: a reliable send that brings a link's backlog to the high-water mark returns
 * false and marks it; once the backlog is back at the low-water mark (checked after each batch of datagrams, when
 * acknowledgements may have freed it) `drained` is called, once per episode. A link that closes meanwhile is
 * forgotten silently.
 */
export class Backpressure<T extends Drainable> {
  private readonly waiting = new DrainList<T>();

  constructor(
    private readonly marks: WaterMarks,
    /** Reliable data in flight: retransmissions run on the fine tick (v1 sends reach no batch that would say so). */
    private readonly hurry: () => void,
    private readonly drained: (item: T) => void,
  ) {}

  /**
   * After a send to `item`: true for an unreliable one (it queues nothing, and false would read as "not sent");
   * for a reliable one, false while it waits for its drain or when this send brought its backlog to the mark.
   */
  afterSend(item: T, channel: Channel): boolean {
    if (channel !== RELIABLE_ORDERED && channel !== RELIABLE_UNORDERED) return true;
    this.hurry();
    if (item.needsDrain) return false;
    const link = item.connection;
    if (link.closed || link.pendingReliable < this.marks.highWaterMark) return true;
    item.needsDrain = true;
    this.waiting.add(item);
    return false;
  }

  /** After a batch: calls `drained` for each waiting item back at the low-water mark. */
  sweep(): void {
    if (this.waiting.size !== 0) this.waiting.sweep(this.stillWaiting, this.release);
  }

  /** Whether an item is still above the low-water mark (a closed one is not: it is forgotten). */
  private readonly stillWaiting = (item: T): boolean =>
    !item.connection.closed && item.connection.pendingReliable > this.marks.lowWaterMark;

  private readonly release = (item: T): void => {
    item.needsDrain = false;
    if (!item.connection.closed) this.drained(item);
  };
}
