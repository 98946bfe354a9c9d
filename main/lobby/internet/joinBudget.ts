/**
 * A room-wide budget for internet join attempts that do not prove the code: every answer the host gives is a
 * chance to test one guess of the code's secret, so an answer is only given while failures in the last minute
 * plus answers still waiting for their confirmation stay under the limit. A confirmation that checks gives its
 * place back; one that fails, or never comes, is a failure. Keyed on nothing a stranger controls: not an
 * address, not a rendezvous connection.
 */
export interface JoinBudget {
  /** Milliseconds until another attempt may be answered (0: now, and the attempt is taken). */
  take(): number;
  /** The attempt proved the code: its place is free again. */
  succeeded(): void;
  /** The attempt failed its confirmation or let it lapse. */
  failed(): void;
}

/** `limit` unproven attempts per `windowMs` (default 20 a minute); `now` in milliseconds. */
export function createJoinBudget(now: () => number, limit = 20, windowMs = 60_000): JoinBudget {
  const failures: number[] = [];
  let waiting = 0;
  const prune = () => {
    while (failures.length > 0 && now() - failures[0]! >= windowMs) failures.shift();
  };
  return {
    take() {
      prune();
      if (failures.length + waiting < limit) {
        waiting += 1;
        return 0;
      }
      // Wait for the oldest failure to leave the window (or, all places held by waiting answers, a second).
      return failures.length > 0 ? Math.max(1, windowMs - (now() - failures[0]!)) : 1000;
    },
    succeeded() {
      waiting = Math.max(0, waiting - 1);
    },
    failed() {
      waiting = Math.max(0, waiting - 1);
      failures.push(now());
    },
  };
}
