import { describe, expect, it } from 'vitest';
import { backgroundScheduler, systemScheduler, type Scheduler } from '../../../main/base/scheduler';
import { ManualScheduler } from '../../support/manualScheduler';
import { waitFor } from '../../support/waitFor';

/** Resolves once a timer armed after everything else has fired: earlier, shorter timers had their chance. */
function fence(scheduler: Scheduler, ms: number): Promise<void> {
  return new Promise((resolve) => scheduler.setTimer(resolve, ms));
}

describe.each([
  ['systemScheduler', systemScheduler],
  ['backgroundScheduler', backgroundScheduler],
])('%s', (_name, scheduler) => {
  it('reads a monotonic millisecond clock', () => {
    const before = performance.now();
    const a = scheduler.now();
    const b = scheduler.now();
    expect(a).toBeGreaterThanOrEqual(before);
    expect(b).toBeGreaterThanOrEqual(a);
    expect(b).toBeLessThanOrEqual(performance.now());
  });

  it('fires a one-shot timer once', async () => {
    let calls = 0;
    scheduler.setTimer(() => (calls += 1), 1);
    await waitFor(() => calls === 1, 2000, 'the timer');
    await fence(scheduler, 20);
    expect(calls).toBe(1);
  });

  it('repeats until cleared, and a cleared timer stays silent', async () => {
    let calls = 0;
    const handle = scheduler.setRepeating(() => (calls += 1), 2);
    await waitFor(() => calls >= 3, 2000, 'three repeats');
    scheduler.clearTimer(handle);
    const stoppedAt = calls;
    let never = false;
    scheduler.clearTimer(scheduler.setTimer(() => (never = true), 1));
    await fence(scheduler, 30);
    expect(calls).toBe(stoppedAt);
    expect(never).toBe(false);
  });

  it('clears a fired, cleared or missing timer without complaint', async () => {
    let fired = false;
    const handle = scheduler.setTimer(() => (fired = true), 1);
    await waitFor(() => fired, 2000, 'the timer');
    expect(() => {
      scheduler.clearTimer(handle);
      scheduler.clearTimer(handle);
      scheduler.clearTimer(undefined);
    }).not.toThrow();
  });
});

describe('background timers', () => {
  it('do not keep the process alive; system timers do', () => {
    const handles = [
      [backgroundScheduler, backgroundScheduler.setTimer(() => undefined, 60_000)],
      [backgroundScheduler, backgroundScheduler.setRepeating(() => undefined, 60_000)],
      [systemScheduler, systemScheduler.setTimer(() => undefined, 60_000)],
      [systemScheduler, systemScheduler.setRepeating(() => undefined, 60_000)],
    ] as const;
    const refs = handles.map(([, handle]) => (handle as NodeJS.Timeout).hasRef());
    for (const [scheduler, handle] of handles) scheduler.clearTimer(handle);
    expect(refs).toEqual([false, false, true, true]);
  });
});

describe('ManualScheduler', () => {
  it('moves only when advanced and fires each timer at its own time, in time order', () => {
    const clock = new ManualScheduler(1_000);
    const fired: string[] = [];
    clock.setTimer(() => fired.push(`b@${clock.now()}`), 20);
    clock.setTimer(() => fired.push(`a@${clock.now()}`), 10);
    clock.setTimer(() => fired.push(`c@${clock.now()}`), 20);
    expect(clock.now()).toBe(1_000);
    clock.advance(15);
    expect(fired).toEqual(['a@1010']);
    expect(clock.now()).toBe(1_015);
    clock.advance(5);
    expect(fired).toEqual(['a@1010', 'b@1020', 'c@1020']);
    expect(clock.pending).toBe(0);
    expect(clock.armed).toBe(3);
  });

  it('re-arms a repeating timer each interval until cleared, also from inside its callback', () => {
    const clock = new ManualScheduler(0);
    const at: number[] = [];
    const handle = clock.setRepeating(() => {
      at.push(clock.now());
      if (at.length === 4) clock.clearTimer(handle);
    }, 100);
    clock.advance(350);
    expect(at).toEqual([100, 200, 300]);
    expect(clock.pending).toBe(1);
    clock.advance(1_000);
    expect(at).toEqual([100, 200, 300, 400]);
    expect(clock.pending).toBe(0);
  });

  it('fires a timer armed by a callback within the same advance; a cleared one never', () => {
    const clock = new ManualScheduler(0);
    const fired: number[] = [];
    const cancelled = clock.setTimer(() => fired.push(-1), 30);
    clock.setTimer(() => {
      fired.push(clock.now());
      clock.setTimer(() => fired.push(clock.now()), 5);
    }, 10);
    clock.clearTimer(cancelled);
    clock.clearTimer(cancelled);
    clock.clearTimer(undefined);
    clock.advance(50);
    expect(fired).toEqual([10, 15]);
  });

  it('runs a 0 ms interval once per millisecond, as Node does, and refuses to go back in time', () => {
    const clock = new ManualScheduler(0);
    let calls = 0;
    clock.setRepeating(() => (calls += 1), 0);
    clock.advance(5);
    expect(calls).toBe(5);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
  });
});
