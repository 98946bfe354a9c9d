/** Clock and repeating timer, injected so discovery timing is tested without sleeping. */
export interface DiscoveryScheduler {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Calls `callback` every `ms`; returns a handle for {@link clearRepeating}. */
  setRepeating(callback: () => void, ms: number): unknown;
  clearRepeating(handle: unknown): void;
}

/** Real time: performance.now() and setInterval (unref'd so discovery never keeps the process alive). */
export const realDiscoveryScheduler: DiscoveryScheduler = {
  now: () => performance.now(),
  setRepeating(callback, ms) {
    const timer = setInterval(callback, ms);
    timer.unref();
    return timer;
  },
  clearRepeating(handle) {
    clearInterval(handle as ReturnType<typeof setInterval>);
  },
};
