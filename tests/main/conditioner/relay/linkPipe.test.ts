import { describe, expect, it } from 'vitest';
import { LinkPipe } from '../../../../main/conditioner/relay/linkPipe';
import { resolveLinkProfile, type LinkProfile } from '../../../../main/conditioner/linkProfile';
import { SeededRandom } from '../../../../shared/random/prng';
import type { Scheduler } from '../../../../main/base/scheduler';
import { ManualScheduler } from '../../../support/manualScheduler';

function setup(patch: Partial<LinkProfile>, opts: { maxQueued?: number; accept?: (n: number) => boolean } = {}) {
  const scheduler = new ManualScheduler();
  const out: number[] = [];
  const pipe = new LinkPipe<number>({
    profile: resolveLinkProfile(patch),
    rng: new SeededRandom(3),
    scheduler,
    maxQueued: opts.maxQueued ?? 1000,
    deliver: (n) => {
      if (opts.accept && !opts.accept(n)) return false;
      out.push(n);
      return true;
    },
  });
  return { scheduler, out, pipe };
}

describe('LinkPipe', () => {
  it('forwards synchronously without any timer when the link is perfect', () => {
    const { scheduler, out, pipe } = setup({});
    for (let i = 0; i < 1000; i++) pipe.submit(i, 10);
    expect(out).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(scheduler.armed).toBe(0);
    expect(pipe.stats()).toMatchObject({ received: 1000, receivedBytes: 10_000, forwarded: 1000, queued: 0 });
  });

  it('forwards without a timer when impairments are on but nothing needs delaying', () => {
    const { scheduler, out, pipe } = setup({ loss: 0.5 });
    for (let i = 0; i < 1000; i++) pipe.submit(i, 10);
    expect(scheduler.armed).toBe(0);
    expect(out.length + pipe.stats().drops.loss).toBe(1000);
    expect(out.length).toBeGreaterThan(400);
  });

  it('holds datagrams for the latency behind a single armed timer', () => {
    const { scheduler, out, pipe } = setup({ latencyMs: 50 });
    for (let i = 0; i < 500; i++) pipe.submit(i, 10);
    expect(out).toEqual([]);
    expect(scheduler.pending).toBe(1);
    expect(pipe.stats().queued).toBe(500);
    scheduler.advance(49);
    expect(out).toEqual([]);
    scheduler.advance(1);
    expect(out).toHaveLength(500);
    expect(out).toEqual([...out].sort((a, b) => a - b));
    expect(scheduler.pending).toBe(0);
    expect(scheduler.armed).toBe(1);
  });

  it('re-arms one timer for the next due datagram as time passes', () => {
    const { scheduler, out, pipe } = setup({ latencyMs: 30 });
    pipe.submit(1, 10);
    scheduler.advance(10);
    pipe.submit(2, 10);
    scheduler.advance(10);
    pipe.submit(3, 10);
    expect(scheduler.pending).toBe(1);
    scheduler.advance(10);
    expect(out).toEqual([1]);
    scheduler.advance(10);
    expect(out).toEqual([1, 2]);
    scheduler.advance(10);
    expect(out).toEqual([1, 2, 3]);
    expect(scheduler.armed).toBe(3);
  });

  it('does not deliver early when a timer wakes before the due time', () => {
    const callbacks: (() => void)[] = [];
    let now = 0;
    const early: Scheduler = {
      now: () => now,
      setTimer: (cb) => {
        callbacks.push(cb);
        return cb;
      },
      setRepeating: () => {
        throw new Error('LinkPipe arms one-shot timers only');
      },
      clearTimer: () => {},
    };
    const out: number[] = [];
    const pipe = new LinkPipe<number>({
      profile: resolveLinkProfile({ latencyMs: 20 }),
      rng: new SeededRandom(1),
      scheduler: early,
      maxQueued: 10,
      deliver: (n) => out.push(n) > 0,
    });
    pipe.submit(7, 1);
    now = 19.5;
    callbacks.shift()!();
    expect(out).toEqual([]);
    expect(callbacks).toHaveLength(1); // re-armed
    now = 20;
    callbacks.shift()!();
    expect(out).toEqual([7]);
  });

  it('counts held-back datagrams that are overtaken as reordered', () => {
    const { scheduler, out, pipe } = setup({ reorder: 0.2, reorderDelayMs: 5, latencyMs: 1 });
    for (let i = 0; i < 1000; i++) {
      pipe.submit(i, 10);
      scheduler.advance(1);
    }
    scheduler.advance(100);
    expect(out).toHaveLength(1000);
    let late = 0;
    let highest = -1;
    for (const n of out) {
      if (n < highest) late++;
      else highest = n;
    }
    expect(late).toBeGreaterThan(150);
    expect(pipe.stats().reordered).toBe(late);
  });

  it('delivers and counts duplicates', () => {
    const { out, pipe } = setup({ duplicate: 1 });
    pipe.submit(1, 10);
    pipe.submit(2, 10);
    expect(out).toEqual([1, 1, 2, 2]);
    expect(pipe.stats()).toMatchObject({ received: 2, forwarded: 4, forwardedBytes: 40, duplicated: 2, reordered: 0 });
  });

  it('drops beyond maxQueued as overflow', () => {
    const { scheduler, out, pipe } = setup({ latencyMs: 10 }, { maxQueued: 5 });
    for (let i = 0; i < 8; i++) pipe.submit(i, 1);
    expect(pipe.stats()).toMatchObject({ queued: 5, dropped: 3, drops: { overflow: 3 } });
    scheduler.advance(10);
    expect(out).toEqual([0, 1, 2, 3, 4]);
  });

  it('counts undeliverable and rejected datagrams as unroutable', () => {
    const { out, pipe } = setup({}, { accept: (n) => n % 2 === 0 });
    for (let i = 0; i < 4; i++) pipe.submit(i, 1);
    pipe.reject(7);
    expect(out).toEqual([0, 2]);
    expect(pipe.stats()).toMatchObject({ received: 5, receivedBytes: 11, forwarded: 2, dropped: 3 });
    expect(pipe.stats().drops.unroutable).toBe(3);
  });

  it('keeps datagrams in flight on their schedule when the profile changes', () => {
    const { scheduler, out, pipe } = setup({ latencyMs: 100 });
    pipe.submit(1, 1);
    pipe.setProfile(resolveLinkProfile({}));
    expect(pipe.profile.latencyMs).toBe(0);
    // The link is perfect now, but the earlier datagram is still queued: the new one waits behind it (order kept).
    pipe.submit(2, 1);
    expect(out).toEqual([]);
    scheduler.advance(100);
    expect(out).toEqual([1, 2]);
    pipe.submit(3, 1);
    expect(out).toEqual([1, 2, 3]);
  });

  it('close() cancels the timer, discards what is in flight and ignores later datagrams', () => {
    const { scheduler, out, pipe } = setup({ latencyMs: 10 });
    pipe.submit(1, 1);
    pipe.close();
    expect(scheduler.pending).toBe(0);
    expect(pipe.stats().queued).toBe(0);
    pipe.submit(2, 1);
    scheduler.advance(100);
    expect(out).toEqual([]);
    expect(pipe.stats().received).toBe(1);
  });

  it('lets datagrams pass straight through only while the link is perfect and nothing waits', () => {
    const { scheduler, out, pipe } = setup({});
    expect(pipe.passing).toBe(true);
    pipe.passed(10, true);
    pipe.passed(4, false);
    expect(pipe.stats()).toMatchObject({ received: 2, receivedBytes: 14, forwarded: 1, forwardedBytes: 10 });
    expect(pipe.stats().drops.unroutable).toBe(1);

    pipe.setProfile(resolveLinkProfile({ latencyMs: 5 }));
    expect(pipe.passing).toBe(false);
    pipe.submit(1, 1);
    pipe.setProfile(resolveLinkProfile({}));
    // Perfect again, but one is still in flight: passing now would overtake it.
    expect(pipe.passing).toBe(false);
    scheduler.advance(5);
    expect(out).toEqual([1]);
    expect(pipe.passing).toBe(true);
    pipe.close();
    expect(pipe.passing).toBe(false);
    expect(pipe.stats()).toMatchObject({ received: 3, forwarded: 2, reordered: 0 });
  });
});
