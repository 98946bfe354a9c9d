import { backgroundScheduler, type Scheduler } from './scheduler';

/** About one animation frame: the most often a screen can show a change anyway. */
export const FRAME_MS = 16;

/** A forwarder of the latest value of a burst; see {@link latestPerFrame}. */
export interface LatestPerFrame<T> {
  push(value: T): void;
  /** Drops a held value and stops the timer. */
  cancel(): void;
}

/**
 * Forwards values at most once per `intervalMs`: the first of a burst at once, then the latest one at the end of
 * each frame, so a flood of changes (chat, pings from a hostile peer) reaches the renderer as one change a frame
 * and the last state always arrives.
 */
export function latestPerFrame<T>(
  forward: (value: T) => void,
  intervalMs = FRAME_MS,
  clock: Scheduler = backgroundScheduler,
): LatestPerFrame<T> {
  let held: { value: T } | undefined;
  let timer: unknown;
  const endOfFrame = (): void => {
    timer = undefined;
    if (!held) return;
    const { value } = held;
    held = undefined;
    timer = clock.setTimer(endOfFrame, intervalMs);
    forward(value);
  };
  return {
    push(value) {
      if (timer !== undefined) {
        held = { value };
        return;
      }
      timer = clock.setTimer(endOfFrame, intervalMs);
      forward(value);
    },
    cancel() {
      if (timer !== undefined) clock.clearTimer(timer);
      timer = undefined;
      held = undefined;
    },
  };
}
