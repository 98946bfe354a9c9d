/** Up to this many waiting items a linear scan finds duplicates; beyond it (a broadcast) a Set does. */
const SCAN_LIMIT = 8;

/**
 * Distinct items waiting for the next flush, in the order they first asked. Two arrays kept at their size and
 * swapped at each drain: a Set emptied at every flush reallocated its table, and a fresh or truncated array its
 * backing store (the server drains after nearly every datagram). A handful of items wait at a time, so a scan
 * finds duplicates; a broadcast queues every peer, where a scan per peer would be quadratic, so past
 * {@link SCAN_LIMIT} items a Set (built only then) answers instead.
 */
export class FlushQueue<T> {
  private waiting: (T | undefined)[] = [];
  private count = 0;
  private draining: (T | undefined)[] = [];
  private readonly index = new Set<T>();

  /** Queues `item` unless it already waits. */
  add(item: T): void {
    const waiting = this.waiting;
    const count = this.count;
    if (count < SCAN_LIMIT) {
      for (let i = 0; i < count; i++) if (waiting[i] === item) return;
    } else {
      if (count === SCAN_LIMIT) for (let i = 0; i < count; i++) this.index.add(waiting[i]!);
      if (this.index.has(item)) return;
      this.index.add(item);
    }
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
    if (this.index.size > 0) this.index.clear();
    for (let i = 0; i < count; i++) {
      const item = items[i]!;
      items[i] = undefined;
      visit(item);
    }
  }
}
