import type { LobbyClock } from '../../../main/lobby/lobbyClock';

/** A LobbyClock whose time moves only when the test says; `live` counts armed timers. */
export function fakeLobbyClock(start = 1000) {
  let now = start;
  let nextHandle = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  const clock: LobbyClock = {
    now: () => now,
    setTimeout(callback, ms) {
      const handle = nextHandle++;
      timers.set(handle, { at: now + ms, callback });
      return handle;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
  };
  return {
    clock,
    get live() {
      return timers.size;
    },
    /** Moves time on by `ms`, firing due timers in order (bounded: a timer that re-arms itself at once stops it). */
    advance(ms: number) {
      const until = now + ms;
      for (let fired = 0; fired < 10_000; fired++) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].callback();
      }
      now = until;
    },
  };
}
