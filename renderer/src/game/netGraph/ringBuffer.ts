/** A fixed-capacity FIFO that overwrites its oldest entry when full; no allocation per push. */
export class RingBuffer<T> {
  private readonly items: (T | undefined)[];
  private start = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be >= 1, got ${capacity}`);
    this.items = new Array<T | undefined>(capacity);
  }

  /** Entries held, at most `capacity`. */
  get length(): number {
    return this.count;
  }

  /** Appends `item`, dropping the oldest entry when full. */
  push(item: T): void {
    const end = (this.start + this.count) % this.capacity;
    this.items[end] = item;
    if (this.count < this.capacity) this.count += 1;
    else this.start = (this.start + 1) % this.capacity;
  }

  /** The i-th entry, oldest first; undefined out of range. */
  at(i: number): T | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.count) return undefined;
    return this.items[(this.start + i) % this.capacity];
  }

  /** The newest entry. */
  latest(): T | undefined {
    return this.at(this.count - 1);
  }

  /** Entries oldest first. */
  toArray(): T[] {
    return Array.from({ length: this.count }, (_, i) => this.at(i) as T);
  }

  /** Drops every entry. */
  clear(): void {
    this.items.fill(undefined);
    this.start = 0;
    this.count = 0;
  }
}
