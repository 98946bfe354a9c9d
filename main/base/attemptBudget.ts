/**
 * A room-wide budget for guesses at a secret (an internet join's code, a room's password): every answer the
 * host gives lets the asker test one guess, so answers take a token from one bucket for the whole room (keyed
 * on nothing a stranger controls: not an address, not a rendezvous connection). A confirmation that checks
 * gives its token back; one that fails, or never comes, keeps it spent. Past the burst, guessing runs at the
 * refill rate, and a real guest after an attack waits at most one refill interval.
 */
export interface AttemptBudget {
  /** Milliseconds until another attempt may be answered (0: now, and its token is taken). */
  take(): number;
  /** The attempt proved the code: its token comes back. */
  succeeded(): void;
}

/** A budget's size and pace: `burst` attempts at once, then one every `refillMs` milliseconds. */
export interface AttemptBudgetLimit {
  readonly burst: number;
  readonly refillMs: number;
}

/** `burst` attempts at once, then one every `refillMs` (default 20, then one every 2 s); `now` in milliseconds. */
export function createAttemptBudget(now: () => number, burst = 20, refillMs = 2000): AttemptBudget {
  let tokens = burst;
  let at = now();
  const refill = () => {
    const t = now();
    tokens = Math.min(burst, tokens + (t - at) / refillMs);
    at = t;
  };
  return {
    take() {
      refill();
      if (tokens >= 1) {
        tokens -= 1;
        return 0;
      }
      return Math.ceil((1 - tokens) * refillMs);
    },
    succeeded() {
      refill();
      tokens = Math.min(burst, tokens + 1);
    },
  };
}
