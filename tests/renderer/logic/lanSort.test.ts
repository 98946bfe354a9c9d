import { describe, expect, it } from 'vitest';
import type { LanServer } from '../../../shared/ipc/schemas/lan';
import { lanRoomStatus } from '../../../renderer/src/logic/lanJoinBlocker';
import { lanServer } from '../lanServerFixture';
import { DEFAULT_LAN_SORT, nextLanSort, sortLanServers } from '../../../renderer/src/logic/lanSort';

const room = lanServer;

const names = (servers: LanServer[]) => servers.map((s) => s.name);

describe('LAN list order', () => {
  const servers = [
    room('bravo', { playerCount: 3, pingMs: 40, state: 'playing' }),
    room('Alpha', { playerCount: 8, pingMs: null }),
    room('charlie', { playerCount: 1, pingMs: 2 }),
    room('delta', { playerCount: 3, pingMs: 12 }),
  ];

  it('sorts by name without regard to case by default, and flips on a second click', () => {
    expect(names(sortLanServers(servers, DEFAULT_LAN_SORT))).toEqual(['Alpha', 'bravo', 'charlie', 'delta']);
    const flipped = nextLanSort(DEFAULT_LAN_SORT, 'name');
    expect(flipped).toEqual({ key: 'name', direction: 'descending' });
    expect(names(sortLanServers(servers, flipped))).toEqual(['delta', 'charlie', 'bravo', 'Alpha']);
    expect(nextLanSort(flipped, 'ping')).toEqual({ key: 'ping', direction: 'ascending' });
  });

  it('sorts by players with ties by name, and by ping with unmeasured ones last either way', () => {
    expect(names(sortLanServers(servers, { key: 'players', direction: 'descending' }))).toEqual([
      'Alpha',
      'bravo',
      'delta',
      'charlie',
    ]);
    expect(names(sortLanServers(servers, { key: 'ping', direction: 'ascending' }))).toEqual([
      'charlie',
      'delta',
      'bravo',
      'Alpha',
    ]);
    expect(names(sortLanServers(servers, { key: 'ping', direction: 'descending' }))).toEqual([
      'bravo',
      'delta',
      'charlie',
      'Alpha',
    ]);
  });

  it('sorts by state: open lobbies first, then rounds in progress, then full rooms', () => {
    expect(names(sortLanServers(servers, { key: 'state', direction: 'ascending' }))).toEqual([
      'charlie',
      'delta',
      'bravo',
      'Alpha',
    ]);
    expect(servers).toHaveLength(4); // the input is left alone
    expect(names(servers)[0]).toBe('bravo');
  });
});

describe('lanRoomStatus', () => {
  it('names each state, full before playing, and servers that cannot say', () => {
    expect(lanRoomStatus(room('a')).label).toBe('In lobby');
    expect(lanRoomStatus(room('a', { state: 'playing' })).label).toBe('Round in progress');
    expect(lanRoomStatus(room('a', { state: 'playing', playerCount: 8 })).label).toBe('Full');
    expect(lanRoomStatus(room('a', { compatibility: 'unknown', state: null })).label).toBe('gale.net server');
    expect(lanRoomStatus(room('a', { compatibility: 'incompatible' })).label).toBe('Different version');
    expect(lanRoomStatus(room('a', { state: null })).label).toBe('Open');
  });
});
