import { describe, expect, it } from 'vitest';
import { DelayQueue } from '../../../../main/conditioner/relay/delayQueue';
import { SeededRandom } from '../../../../shared/random/prng';

describe('DelayQueue', () => {
  it('is empty at first', () => {
    const q = new DelayQueue<string>();
    expect(q.size).toBe(0);
    expect(q.peekTime()).toBeUndefined();
    expect(q.pop()).toBeUndefined();
  });

  it('pops by time, and equal times in insertion order', () => {
    const q = new DelayQueue<string>();
    q.push(30, 'c');
    q.push(10, 'a1');
    q.push(20, 'b');
    q.push(10, 'a2');
    q.push(10, 'a3');
    expect(q.peekTime()).toBe(10);
    expect([q.pop(), q.pop(), q.pop(), q.pop(), q.pop(), q.pop()]).toEqual(['a1', 'a2', 'a3', 'b', 'c', undefined]);
  });

  it('matches a stable sort on a large random workload', () => {
    const rng = new SeededRandom(99);
    const q = new DelayQueue<number>();
    const items = Array.from({ length: 5000 }, (_, i) => ({ time: Math.floor(rng.next() * 200), i }));
    for (const { time, i } of items) q.push(time, i);
    const expected = [...items].sort((a, b) => a.time - b.time || a.i - b.i).map((x) => x.i);
    const out: number[] = [];
    for (let x = q.pop(); x !== undefined; x = q.pop()) out.push(x);
    expect(out).toEqual(expected);
  });

  it('drains only what is due, in order, with its time', () => {
    const q = new DelayQueue<string>();
    q.push(5, 'x');
    q.push(1, 'y');
    q.push(9, 'z');
    const seen: [string, number][] = [];
    q.drainDue(5, (item, time) => seen.push([item, time]));
    expect(seen).toEqual([
      ['y', 1],
      ['x', 5],
    ]);
    expect(q.size).toBe(1);
    expect(q.peekTime()).toBe(9);
  });

  it('clears', () => {
    const q = new DelayQueue<number>();
    q.push(1, 1);
    q.clear();
    expect(q.size).toBe(0);
  });
});
