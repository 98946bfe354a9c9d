/**
 * Distinct items waiting for the next flush, in the order they first asked. Two arrays kept at their size and
 * swapped at each drain: a Set emptied at every flush reallocated its table, and a fresh or truncated array its
 * backing store (the server drains after nearly every datagram).
 */
export class FlushQueue<T> {
  private waiting: (T | undefined)[] = [];
  private count = 0;
  private draining: (T | undefined)[] = [];

  /** Queues `item` unless it already waits (a linear scan: a handful of items wait at a time). */
  add(item: T): void {
    const waiting = this.waiting;
    for (let i = 0; i < this.count; i++) if (waiting[i] === item) return;
    waiting[this.count++] = item;
  }

  /** Number of items waiting. */
  get size(): number {
    return this.count;
  }

  /** Empties the queue, calling `visit` on each item; items added meanwhile wait for the next drain. */
  drain(visit: (item: T) => void): void {
    const count = this.count;
    if (count === 0) return;
    const items = this.waiting;
    this.waiting = this.draining;
    this.draining = items;
    this.count = 0;
    for (let i = 0; i < count; i++) {
      const item = items[i]!;
      items[i] = undefined;
      visit(item);
    }
  }
}
