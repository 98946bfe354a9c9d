import type { Scheduler } from './scheduler';

/** Longest wait a host's "try again in N s" may ask for and still be waited out without the player's click. */
export const MAX_AUTO_RETRY_WAIT_SEC = 5;

/** Tries of one join, the first included, when the host keeps answering "try again in N s". */
export const MAX_JOIN_TRIES = 3;

/**
 * Runs `attempt` again after the wait its failure asks for (`waitMsOf`; undefined for a failure that asks none):
 * a room just under a guessing attack turns everyone away for a second or two, and a real guest should not have
 * to click again. Up to MAX_JOIN_TRIES in all; a failure with no wait, or a longer one, ends it at once.
 */
export async function retryShortWaits<T>(
  scheduler: Scheduler,
  attempt: () => Promise<T>,
  waitMsOf: (error: unknown) => number | undefined,
): Promise<T> {
  for (let tried = 1; ; tried += 1) {
    try {
      return await attempt();
    } catch (error) {
      const wait = waitMsOf(error);
      if (wait === undefined || wait <= 0 || wait > MAX_AUTO_RETRY_WAIT_SEC * 1000 || tried >= MAX_JOIN_TRIES)
        throw error;
      await new Promise<void>((resolve) => scheduler.setTimer(resolve, wait));
    }
  }
}
