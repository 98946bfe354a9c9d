/** An item a {@link FlushQueue} can hold: one bit of `queueMarks` per queue it may wait in, owned by that queue. */
export interface Queueable {
  queueMarks: number;
}

/**
 * Distinct items waiting for the next flush, in the order they first asked. A waiting item carries this queue's bit
 * in its `queueMarks`, so a duplicate is found without a lookup: a Set of waiting items, emptied at every drain,
 * regrew its table on every broadcast (~3% of a server's CPU at 64 peers). Two arrays kept at their size are swapped
 * at each drain, as a fresh or truncated array reallocated its backing store (the server drains after nearly every
 * datagram).
 */
export class FlushQueue<T extends Queueable> {
  private waiting: (T | undefined)[] = [];
  private count = 0;
  private draining: (T | undefined)[] = [];
  private readonly bit: number;

  /** `bit`: the one bit of `queueMarks` this queue owns (0–30); queues an item can be in must own different bits. */
  constructor(bit: number) {
    if (!Number.isInteger(bit) || bit < 0 || bit > 30) throw new RangeError(`queue bit ${bit} is not in 0–30`);
    this.bit = 1 << bit;
  }

  /** Queues `item` unless it already waits. */
  add(item: T): void {
    if ((item.queueMarks & this.bit) !== 0) return;
    item.queueMarks |= this.bit;
    this.waiting[this.count++] = item;
  }

  /** Number of items waiting. */
  get size(): number {
    return this.count;
  }

  /** Empties the queue, calling `visit` on each item; an item added meanwhile (even one visited) waits for the next. */
  drain(visit: (item: T) => void): void {
    const count = this.count;
    if (count === 0) return;
    const items = this.waiting;
    this.waiting = this.draining;
    this.draining = items;
    this.count = 0;
    const clear = ~this.bit;
    // Unmarked before any visit: a visit may queue any item again, for the next drain.
    for (let i = 0; i < count; i++) items[i]!.queueMarks &= clear;
    for (let i = 0; i < count; i++) {
      const item = items[i]!;
      items[i] = undefined;
      visit(item);
    }
  }
}
