import type { Scheduler, TimerHandle } from '../../../main/conditioner/scheduler';

interface ManualTimer {
  at: number;
  callback: () => void;
  cancelled: boolean;
}

/** A Scheduler whose clock only moves when the test calls advance(); timers fire in time order. */
export class ManualScheduler implements Scheduler {
  private time: number;
  private readonly timers: ManualTimer[] = [];
  /** How many timers were ever armed. */
  armed = 0;

  constructor(start = 1_000) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(callback: () => void, delayMs: number): TimerHandle {
    const timer: ManualTimer = { at: this.time + delayMs, callback, cancelled: false };
    this.timers.push(timer);
    this.armed++;
    return timer;
  }

  clearTimer(handle: TimerHandle): void {
    (handle as ManualTimer).cancelled = true;
  }

  /** Timers armed and neither fired nor cancelled. */
  get pending(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /** Moves the clock forward by `ms`, firing each due timer at its own time. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const live = this.timers.filter((t) => !t.cancelled && t.at <= end).sort((a, b) => a.at - b.at);
      const next = live[0];
      if (next === undefined) break;
      next.cancelled = true;
      this.time = Math.max(this.time, next.at);
      next.callback();
    }
    this.time = end;
    for (let i = this.timers.length - 1; i >= 0; i--) if (this.timers[i]?.cancelled) this.timers.splice(i, 1);
  }
}
