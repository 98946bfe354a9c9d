import type { LanList } from '../../../shared/ipc/schemas/lan';

/** What home says about rooms already visible on this network (the LAN search runs while home is shown). */
export function lanHint(lan: LanList): string {
  const rooms = lan.servers.filter((s) => !s.own).length;
  if (lan.error) return 'Can’t search this network right now.';
  if (rooms > 0) return rooms === 1 ? '1 room open on this network now.' : `${rooms} rooms open on this network now.`;
  return lan.running ? 'No rooms seen on this network yet.' : 'Looking for rooms on this network…';
}
