import { describe, expect, it } from 'vitest';
import { FlushQueue } from '../../../../main/net/endpoint/flushQueue';

describe('FlushQueue', () => {
  it('drains each queued item once, in the order it first asked, and is empty after', () => {
    const q = new FlushQueue<string>();
    for (const item of ['b', 'a', 'b', 'c', 'a']) q.add(item);
    expect(q.size).toBe(3);
    const seen: string[] = [];
    q.drain((item) => seen.push(item));
    expect(seen).toEqual(['b', 'a', 'c']);
    expect(q.size).toBe(0);
    q.drain(() => seen.push('never'));
    expect(seen).toEqual(['b', 'a', 'c']);
  });

  it('keeps an item added during a drain (even one being drained) for the next drain', () => {
    const q = new FlushQueue<string>();
    q.add('x');
    q.add('y');
    const first: string[] = [];
    q.drain((item) => {
      first.push(item);
      if (item === 'x') q.add('x');
      if (item === 'y') q.add('z');
    });
    expect(first).toEqual(['x', 'y']);
    const second: string[] = [];
    q.drain((item) => second.push(item));
    expect(second).toEqual(['x', 'z']);
  });

  it('works across many drains of varying size', () => {
    const q = new FlushQueue<number>();
    for (let round = 0; round < 50; round++) {
      const n = (round * 7) % 11;
      for (let i = 0; i < n; i++) q.add(i);
      const seen: number[] = [];
      q.drain((i) => seen.push(i));
      expect(seen).toEqual([...Array(n).keys()]);
    }
  });

  it('deduplicates a broadcast-sized queue (past the scan limit) and forgets it at the drain', () => {
    const q = new FlushQueue<number>();
    for (const size of [64, 8, 9, 8, 3, 100]) {
      // Every item twice, interleaved, then again in reverse: each must come out once, in first-asked order.
      for (let i = 0; i < size; i++) q.add(i);
      for (let i = size - 1; i >= 0; i--) q.add(i);
      expect(q.size).toBe(size);
      const seen: number[] = [];
      q.drain((i) => seen.push(i));
      expect(seen).toEqual([...Array(size).keys()]);
    }
    // Items of an earlier large round are not taken for waiting ones in a later round.
    for (let i = 100; i < 110; i++) q.add(i);
    q.add(5);
    const seen: number[] = [];
    q.drain((i) => seen.push(i));
    expect(seen).toEqual([100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 5]);
  });
});
