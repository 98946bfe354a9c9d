import { describe, expect, it } from 'vitest';
import { DrainList } from '../../../../main/net/endpoint/backpressure/drainList';

describe('DrainList', () => {
  it('keeps the waiting items in order and releases the others', () => {
    const list = new DrainList<number>();
    for (const n of [1, 2, 3, 4, 5]) list.add(n);
    const released: number[] = [];
    list.sweep(
      (n) => n % 2 === 0,
      (n) => released.push(n),
    );
    expect(released).toEqual([1, 3, 5]);
    expect(list.size).toBe(2);
    const rest: number[] = [];
    list.sweep(
      () => false,
      (n) => rest.push(n),
    );
    expect(rest).toEqual([2, 4]);
    expect(list.size).toBe(0);
  });

  it('keeps what a release adds for the next sweep, after the ones still waiting', () => {
    const list = new DrainList<string>();
    for (const s of ['a', 'b', 'c']) list.add(s);
    const released: string[] = [];
    list.sweep(
      (s) => s === 'b',
      (s) => {
        released.push(s);
        if (s === 'a') list.add('a again'); // a drain callback that sends past the mark again
      },
    );
    expect(released).toEqual(['a', 'c']); // 'a again' is not swept in the same pass
    const order: string[] = [];
    list.sweep(
      (s) => {
        order.push(s);
        return true;
      },
      () => undefined,
    );
    expect(order).toEqual(['b', 'a again']);
  });
});
