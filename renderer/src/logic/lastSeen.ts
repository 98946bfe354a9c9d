/** How recently a LAN room was heard, in words, and whether it has gone quiet (missed a search round). */
export interface LastSeen {
  readonly label: string;
  readonly stale: boolean;
}

/** Under this age a room reads "seen just now" (a healthy room is heard every round, 2 s by default). */
const JUST_NOW_MS = 5_000;

function ago(ageMs: number): string {
  const seconds = Math.floor(ageMs / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min`;
}

/**
 * "seen just now", "seen 12 s ago", "seen 3 min ago", or "not heard for 5 s" once older than `staleAfterMs`.
 * Both times are wall-clock ms; a last-seen time ahead of `nowMs` (clocks read apart) counts as now. Pure.
 */
export function describeLastSeen(lastSeenAt: number, nowMs: number, staleAfterMs: number): LastSeen {
  const ageMs = Math.max(0, nowMs - lastSeenAt);
  if (ageMs >= staleAfterMs) return { label: `not heard for ${ago(ageMs)}`, stale: true };
  return { label: ageMs < JUST_NOW_MS ? 'seen just now' : `seen ${ago(ageMs)} ago`, stale: false };
}
