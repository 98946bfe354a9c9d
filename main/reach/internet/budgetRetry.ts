import { RendezvousError, RendezvousErrorCode } from '../../../shared/rendezvous';
import { MAX_AUTO_RETRY_WAIT_SEC, retryShortWaits } from '../../base/retryShortWaits';
import type { Scheduler } from '../../base/scheduler';

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

/** {@link retryShortWaits} for the internet join's ask: waits out a room budget's short "try again in N s". */
export function withBudgetRetry<T>(scheduler: Scheduler, attempt: () => Promise<T>): Promise<T> {
  return retryShortWaits(scheduler, attempt, (error) => {
    const seconds = budgetWaitSec(error);
    return seconds === undefined ? undefined : seconds * 1000;
  });
}
