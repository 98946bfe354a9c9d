import { describe, expect, it } from 'vitest';
import { FlushQueue } from '../../../../main/net/endpoint/flushQueue';

/** A queueable item named for the assertions. */
interface Item {
  name: string;
  queueMarks: number;
}

const items = (names: string[]): Record<string, Item> =>
  Object.fromEntries(names.map((name) => [name, { name, queueMarks: 0 }]));
const numbered = (n: number): Item[] => Array.from({ length: n }, (_, i) => ({ name: String(i), queueMarks: 0 }));

describe('FlushQueue', () => {
  it('drains each queued item once, in the order it first asked, and is empty after', () => {
    const q = new FlushQueue<Item>(0);
    const { a, b, c } = items(['a', 'b', 'c']);
    for (const item of [b!, a!, b!, c!, a!]) q.add(item);
    expect(q.size).toBe(3);
    const seen: string[] = [];
    q.drain((item) => seen.push(item.name));
    expect(seen).toEqual(['b', 'a', 'c']);
    expect(q.size).toBe(0);
    expect([a!, b!, c!].map((i) => i.queueMarks)).toEqual([0, 0, 0]);
    q.drain(() => seen.push('never'));
    expect(seen).toEqual(['b', 'a', 'c']);
  });

  it('keeps an item added during a drain (even one being drained) for the next drain', () => {
    const q = new FlushQueue<Item>(0);
    const { x, y, z } = items(['x', 'y', 'z']);
    q.add(x!);
    q.add(y!);
    const first: string[] = [];
    q.drain((item) => {
      first.push(item.name);
      if (item === x) q.add(x!);
      if (item === y) q.add(z!);
    });
    expect(first).toEqual(['x', 'y']);
    const second: string[] = [];
    q.drain((item) => second.push(item.name));
    expect(second).toEqual(['x', 'z']);
  });

  it('deduplicates a broadcast-sized queue and forgets it at the drain, over many drains of varying size', () => {
    const q = new FlushQueue<Item>(3);
    const all = numbered(110);
    for (const size of [64, 8, 9, 0, 3, 100, 7, 110]) {
      // Every item twice, interleaved, then again in reverse: each must come out once, in first-asked order.
      for (let i = 0; i < size; i++) q.add(all[i]!);
      for (let i = size - 1; i >= 0; i--) q.add(all[i]!);
      expect(q.size).toBe(size);
      const seen: string[] = [];
      q.drain((item) => seen.push(item.name));
      expect(seen).toEqual(all.slice(0, size).map((i) => i.name));
    }
    expect(all.every((i) => i.queueMarks === 0)).toBe(true);
  });

  it('lets one item wait in two queues with their own bits, each draining it once', () => {
    const flush = new FlushQueue<Item>(0);
    const wake = new FlushQueue<Item>(1);
    const { a, b } = items(['a', 'b']);
    flush.add(a!);
    wake.add(a!);
    wake.add(b!);
    expect(a!.queueMarks).toBe(0b11);
    const flushed: string[] = [];
    flush.drain((item) => flushed.push(item.name));
    // Draining one queue leaves the item waiting in the other, and it can be queued in the first again.
    expect(a!.queueMarks).toBe(0b10);
    flush.add(a!);
    expect(flush.size).toBe(1);
    const woken: string[] = [];
    wake.drain((item) => woken.push(item.name));
    expect([flushed, woken]).toEqual([['a'], ['a', 'b']]);
    expect(a!.queueMarks).toBe(0b01);
  });

  it('refuses a bit outside 0–30', () => {
    for (const bit of [-1, 31, 1.5, Number.NaN]) expect(() => new FlushQueue<Item>(bit)).toThrow(RangeError);
  });

  it('takes a visit that throws without losing the rest: they can be queued again', () => {
    const q = new FlushQueue<Item>(0);
    const [first, second] = numbered(2);
    q.add(first!);
    q.add(second!);
    expect(() =>
      q.drain(() => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    q.add(second!);
    const seen: string[] = [];
    q.drain((item) => seen.push(item.name));
    expect(seen).toEqual(['1']);
  });
});
