interface Entry<T> {
  time: number;
  order: number;
  item: T;
}

/** A min-heap of items keyed by delivery time; equal times come out in insertion order (so FIFO is preserved). */
export class DelayQueue<T> {
  private readonly heap: Entry<T>[] = [];
  private inserted = 0;

  /** Number of items waiting. */
  get size(): number {
    return this.heap.length;
  }

  /** Delivery time of the earliest item, or undefined when empty. */
  peekTime(): number | undefined {
    return this.heap[0]?.time;
  }

  /** Adds an item due at `time`. */
  push(time: number, item: T): void {
    const heap = this.heap;
    const entry: Entry<T> = { time, order: this.inserted++, item };
    let i = heap.length;
    heap.push(entry);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent] as Entry<T>;
      if (!before(entry, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = entry;
  }

  /** Removes and returns the earliest item, or undefined when empty. */
  pop(): T | undefined {
    const heap = this.heap;
    const top = heap[0];
    if (top === undefined) return undefined;
    const last = heap.pop() as Entry<T>;
    if (heap.length > 0) this.siftDown(last);
    return top.item;
  }

  /** Removes every item due at or before `now`, in delivery order, passing each to `visit`. */
  drainDue(now: number, visit: (item: T, time: number) => void): void {
    for (let top = this.heap[0]; top !== undefined && top.time <= now; top = this.heap[0]) {
      this.pop();
      visit(top.item, top.time);
    }
  }

  /** Removes everything. */
  clear(): void {
    this.heap.length = 0;
  }

  private siftDown(entry: Entry<T>): void {
    const heap = this.heap;
    const n = heap.length;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n && before(heap[right] as Entry<T>, heap[left] as Entry<T>)) child = right;
      const c = heap[child] as Entry<T>;
      if (!before(c, entry)) break;
      heap[i] = c;
      i = child;
    }
    heap[i] = entry;
  }
}

function before<T>(a: Entry<T>, b: Entry<T>): boolean {
  return a.time < b.time || (a.time === b.time && a.order < b.order);
}
