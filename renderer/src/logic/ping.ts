/** How a round trip feels in a fast game. */
export type PingTone = 'good' | 'fair' | 'poor' | 'unknown';

/** Label and tone for a ping in ms (null: not measured yet). Pure. */
export function describePing(pingMs: number | null): { readonly label: string; readonly tone: PingTone } {
  if (pingMs === null || !Number.isFinite(pingMs)) return { label: '—', tone: 'unknown' };
  const ms = Math.max(0, Math.round(pingMs));
  return { label: ms < 1 ? '<1 ms' : `${ms} ms`, tone: ms <= 40 ? 'good' : ms <= 100 ? 'fair' : 'poor' };
}
