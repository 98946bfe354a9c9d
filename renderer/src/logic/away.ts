import { useEffect, useState } from 'react';

/** What a player whose link went silent shows while its seat waits: "Reconnecting… 23 s". Pure. */
export function describeAway(awayUntil: number, nowMs: number): { readonly label: string; readonly seconds: number } {
  const seconds = Math.max(0, Math.ceil((awayUntil - nowMs) / 1000));
  return { label: seconds > 0 ? `Reconnecting… ${seconds} s` : 'Reconnecting…', seconds };
}

/** What a player whose link the host has not heard for a moment shows: no countdown, its seat is not held yet. */
export const LINK_QUIET_LABEL = 'reconnecting…';

/** A player's away line: the held seat's countdown, else the quiet link's marker, else none. Pure. */
export function awayLabel(player: { readonly awayUntil?: number; readonly linkQuiet?: boolean }, nowMs: number) {
  if (player.awayUntil !== undefined) return describeAway(player.awayUntil, nowMs).label;
  return player.linkQuiet ? LINK_QUIET_LABEL : undefined;
}

/** The wall clock in ms, re-read every second while `active` (a countdown's tick). */
export function useSecondTick(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}
