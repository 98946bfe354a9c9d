/** Options of {@link createLogThrottle}. */
export interface LogThrottleOptions {
  /** Lines logged as they come before throttling starts. */
  readonly burst?: number;
  /** After the burst, at most one line per this many ms. */
  readonly periodMs?: number;
  readonly now?: () => number;
}

/** Decides which of a stream of similar log lines to write; see {@link createLogThrottle}. */
export interface LogThrottle {
  /** The line to log now (with a count of lines held back since the last one), or null to stay quiet. */
  note(line: string): string | null;
}

/**
 * A log rate limit for events anyone can trigger (refused connections): the first `burst` lines as they come,
 * then one per `periodMs` saying how many were held back, so a flood cannot fill the disk or drown the log.
 */
export function createLogThrottle({
  burst = 5,
  periodMs = 60_000,
  now = Date.now,
}: LogThrottleOptions = {}): LogThrottle {
  let seen = 0;
  let held = 0;
  let lastLogged = -Infinity;
  return {
    note(line) {
      seen += 1;
      const at = now();
      if (seen > burst && at - lastLogged < periodMs) {
        held += 1;
        return null;
      }
      lastLogged = at;
      const out = held > 0 ? `${line} (${held} more refused since the last report)` : line;
      held = 0;
      return out;
    },
  };
}
