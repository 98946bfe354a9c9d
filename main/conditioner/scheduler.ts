/** Opaque handle of an armed timer. */
export type TimerHandle = unknown;

/** Time and timers, injectable so the relay's timing can be driven by hand in tests. */
export interface Scheduler {
  /** Monotonic time in milliseconds (fractions allowed). */
  now(): number;
  /** Calls `callback` once after at least `delayMs`. */
  setTimer(callback: () => void, delayMs: number): TimerHandle;
  /** Cancels a timer from setTimer; cancelling a fired or cancelled timer does nothing. */
  clearTimer(handle: TimerHandle): void;
}

/** The real clock (performance.now) and Node's timers. */
export const systemScheduler: Scheduler = {
  now: () => performance.now(),
  setTimer: (callback, delayMs) => setTimeout(callback, delayMs),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
