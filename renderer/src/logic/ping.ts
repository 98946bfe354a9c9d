/** How a round trip feels in a fast game. */
export type PingTone = 'good' | 'fair' | 'poor' | 'unknown';

/** Label and tone for a ping in ms (null: not measured yet). Pure. */
export function describePing(pingMs: number | null): { readonly label: string; readonly tone: PingTone } {
  if (pingMs === null || !Number.isFinite(pingMs)) return { label: '—', tone: 'unknown' };
  const ms = Math.max(0, Math.round(pingMs));
  return { label: ms < 1 ? '<1 ms' : `${ms} ms`, tone: ms <= 40 ? 'good' : ms <= 100 ? 'fair' : 'poor' };
}

const PATH_LABELS = {
  lan: 'LAN',
  direct: 'Direct',
  relayed: 'Relayed',
  router: 'Direct (router)',
  dht: 'Direct (punched)',
} as const;
const PATH_TITLES = {
  lan: 'On the same network as the host',
  direct: 'Over the internet, straight to the host',
  relayed: 'Over the internet, through the relay server',
  router: 'Over the internet, straight to the port the host’s router opened',
  dht: 'Over the internet, straight to the host through both routers, no relay in between',
} as const;

/** The badge for a guest's path to the host (absent: an older host, so the LAN). Pure. */
export function describePath(path: keyof typeof PATH_LABELS | undefined): { label: string; title: string } {
  const key = path ?? 'lan';
  return { label: PATH_LABELS[key], title: PATH_TITLES[key] };
}
