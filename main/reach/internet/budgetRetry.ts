import { RendezvousError, RendezvousErrorCode } from '../../../shared/rendezvous';
import type { Scheduler } from '../../base/scheduler';

/** Longest wait a host's "try again in N s" may ask for and still be waited out without the player's click. */
export const MAX_AUTO_RETRY_WAIT_SEC = 5;

/** Tries of one join, the first included, when the host keeps answering "try again in N s". */
export const MAX_JOIN_TRIES = 3;

/**
 * The seconds a host's refusal asks the guest to wait when it is a room-wide budget's "try again in N s" (the
 * host's own wording, internetRoom.ts) short enough to wait out; undefined for any other refusal.
 */
export function budgetWaitSec(error: unknown): number | undefined {
  if (!(error instanceof RendezvousError) || error.code !== RendezvousErrorCode.REJECTED) return undefined;
  const asked = /try again in (\d{1,3}(?:\.\d)?) s\b/.exec(error.message);
  if (!asked) return undefined;
  const seconds = Number(asked[1]);
  return seconds > 0 && seconds <= MAX_AUTO_RETRY_WAIT_SEC ? seconds : undefined;
}

/**
 * Runs `attempt` again after the wait a host's budget asks for (a room just under a guessing attack turns
 * everyone away for a second or two; a real guest should not have to click again), up to MAX_JOIN_TRIES in
 * all. Any other failure, or a longer wait, ends it at once with that error.
 */
export async function withBudgetRetry<T>(scheduler: Scheduler, attempt: () => Promise<T>): Promise<T> {
  for (let tried = 1; ; tried += 1) {
    try {
      return await attempt();
    } catch (error) {
      const wait = budgetWaitSec(error);
      if (wait === undefined || tried >= MAX_JOIN_TRIES) throw error;
      await new Promise<void>((resolve) => scheduler.setTimer(resolve, wait * 1000));
    }
  }
}
