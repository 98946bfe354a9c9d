import { useEffect, useState } from 'react';

/** What a player whose link went silent shows while its seat waits: "Reconnecting… 23 s". Pure. */
export function describeAway(awayUntil: number, nowMs: number): { readonly label: string; readonly seconds: number } {
  const seconds = Math.max(0, Math.ceil((awayUntil - nowMs) / 1000));
  return { label: seconds > 0 ? `Reconnecting… ${seconds} s` : 'Reconnecting…', seconds };
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
