/**
 * Items whose send returned false, kept until they drain (as Node streams emit 'drain'). Swept in place, with
 * callbacks created once by the owner: a sweep runs after every batch of datagrams while anything waits.
 */
export class DrainList<T> {
  private readonly items: T[] = [];

  /** Items waiting. */
  get size(): number {
    return this.items.length;
  }

  /** Starts watching `item`; the caller adds each item once until it leaves. */
  add(item: T): void {
    this.items.push(item);
  }

  /**
   * Keeps the items `waiting` says still wait and calls `release` on each of the others, in order. Items that
   * `release` adds (a drain callback that sends again) are kept for the next sweep.
   */
  sweep(waiting: (item: T) => boolean, release: (item: T) => void): void {
    const items = this.items;
    const count = items.length;
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const item = items[i]!;
      if (waiting(item)) items[kept++] = item;
      else release(item);
    }
    // Whatever `release` appended sits after the first `count`: move it down behind the kept ones.
    const added = items.length - count;
    items.copyWithin(kept, count);
    items.length = kept + added;
  }
}
