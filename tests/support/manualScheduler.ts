import type { Scheduler, TimerHandle } from '../../main/base/scheduler';

interface ManualTimer {
  at: number;
  /** 0 for a one-shot timer. */
  readonly every: number;
  readonly callback: () => void;
  cleared: boolean;
}

/** A Scheduler whose clock moves only when the test calls advance(); timers fire in time order, at their own time. */
export class ManualScheduler implements Scheduler {
  private time: number;
  private timers: ManualTimer[] = [];
  /** How many timers were ever armed (one-shot and repeating). */
  armed = 0;

  constructor(start = 1_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(callback: () => void, delayMs: number): TimerHandle {
    return this.arm(callback, delayMs, false);
  }

  setRepeating(callback: () => void, intervalMs: number): TimerHandle {
    return this.arm(callback, intervalMs, true);
  }

  clearTimer(handle: TimerHandle): void {
    if (this.timers.includes(handle as ManualTimer)) (handle as ManualTimer).cleared = true;
  }

  /** Timers armed and neither fired (one-shot) nor cleared. */
  get pending(): number {
    return this.timers.filter((t) => !t.cleared).length;
  }

  /** Moves the clock forward by `ms`, firing each due timer at its own time; a repeating one re-arms. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`advance() needs a non-negative duration, got ${ms}`);
    const end = this.time + ms;
    for (;;) {
      let next: ManualTimer | undefined;
      for (const timer of this.timers) {
        if (!timer.cleared && timer.at <= end && (next === undefined || timer.at < next.at)) next = timer;
      }
      if (next === undefined) break;
      this.time = Math.max(this.time, next.at);
      if (next.every > 0) next.at += next.every;
      else next.cleared = true;
      next.callback();
    }
    this.time = end;
    this.timers = this.timers.filter((t) => !t.cleared);
  }

  private arm(callback: () => void, delayMs: number, repeating: boolean): ManualTimer {
    // As in Node, a delay under 1 ms (or not a number) means 1 ms; it also keeps advance() finite.
    const delay = delayMs >= 1 ? delayMs : 1;
    const timer: ManualTimer = { at: this.time + delay, every: repeating ? delay : 0, callback, cleared: false };
    this.timers.push(timer);
    this.armed++;
    return timer;
  }
}
