import { describe, expect, it } from 'vitest';
import { latestPerFrame } from '../../../main/base/latestPerFrame';
import { ManualScheduler } from '../../support/manualScheduler';

describe('latest value per frame', () => {
  it('forwards the first at once, then only the latest of each frame', () => {
    const time = new ManualScheduler();
    const seen: number[] = [];
    const views = latestPerFrame((n: number) => seen.push(n), 16, time);
    views.push(1);
    expect(seen).toEqual([1]);
    for (let n = 2; n <= 1000; n++) views.push(n);
    expect(seen).toEqual([1]);
    time.advance(16);
    expect(seen).toEqual([1, 1000]);
    views.push(1001);
    views.push(1002);
    time.advance(16);
    expect(seen).toEqual([1, 1000, 1002]);
    time.advance(16); // a quiet frame: the timer stops
    expect(time.pending).toBe(0);
    views.push(1003);
    expect(seen).toEqual([1, 1000, 1002, 1003]);
  });

  it('a flood of 5,000 changes over a second reaches the renderer at most once a frame', () => {
    const time = new ManualScheduler();
    let forwarded = 0;
    const views = latestPerFrame(() => (forwarded += 1), 16, time);
    for (let i = 0; i < 5000; i++) {
      views.push(i);
      time.advance(0.2);
    }
    time.advance(16);
    expect(forwarded).toBeLessThanOrEqual(Math.ceil(1000 / 16) + 1);
    expect(forwarded).toBeGreaterThan(50);
  });

  it('cancel drops what it held and stops the timer', () => {
    const time = new ManualScheduler();
    const seen: number[] = [];
    const views = latestPerFrame((n: number) => seen.push(n), 16, time);
    views.push(1);
    views.push(2);
    views.cancel();
    time.advance(100);
    expect(seen).toEqual([1]);
    expect(time.pending).toBe(0);
  });
});
