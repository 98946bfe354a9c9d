import type { LanServer } from '../../../shared/ipc/schemas/lan';
import { lanRoomStatus } from './lanJoinBlocker';

/** The LAN list's sortable columns. */
export const LAN_SORT_KEYS = ['name', 'players', 'ping', 'state'] as const;

/** One of {@link LAN_SORT_KEYS}. */
export type LanSortKey = (typeof LAN_SORT_KEYS)[number];

/** A column and a direction. */
export interface LanSort {
  readonly key: LanSortKey;
  readonly direction: 'ascending' | 'descending';
}

/** The list's order before the player picks one: by name, which does not jump as pings change. */
export const DEFAULT_LAN_SORT: LanSort = { key: 'name', direction: 'ascending' };

const STATE_ORDER = { lobby: 0, other: 1, playing: 2, full: 3 } as const;

function compareBy(key: LanSortKey, a: LanServer, b: LanServer): number {
  switch (key) {
    case 'name':
      return a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
    case 'players':
      return a.playerCount - b.playerCount;
    case 'ping':
      return (a.pingMs ?? Number.POSITIVE_INFINITY) - (b.pingMs ?? Number.POSITIVE_INFINITY) || 0;
    case 'state':
      return STATE_ORDER[lanRoomStatus(a).kind] - STATE_ORDER[lanRoomStatus(b).kind];
  }
}

/**
 * The servers in the chosen order; ties by name then address, so equal rows keep still. An unmeasured ping
 * sorts last in either direction (it is not "fast" or "slow", just unknown). Pure; returns a new array.
 */
export function sortLanServers(servers: readonly LanServer[], sort: LanSort): LanServer[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...servers].sort((a, b) => {
    if (sort.key === 'ping' && (a.pingMs === null) !== (b.pingMs === null)) return a.pingMs === null ? 1 : -1;
    return (
      sign * compareBy(sort.key, a, b) || compareBy('name', a, b) || a.host.localeCompare(b.host) || a.port - b.port
    );
  });
}

/** The sort after clicking a column header: the same column flips, a new one starts ascending. Pure. */
export function nextLanSort(current: LanSort, key: LanSortKey): LanSort {
  if (current.key !== key) return { key, direction: 'ascending' };
  return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}
