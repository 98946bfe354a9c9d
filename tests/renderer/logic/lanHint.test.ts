import { describe, expect, it } from 'vitest';
import type { LanList } from '../../../shared/ipc/schemas/lan';
import { lanHint } from '../../../renderer/src/logic/lanHint';
import { EMPTY_LAN_LIST } from '../../../renderer/src/state/lanSlice';
import { lanServer } from '../lanServerFixture';

const server = (id: string, own = false) => lanServer(id, { own });

describe('home’s line about rooms on the LAN', () => {
  const running: LanList = { ...EMPTY_LAN_LIST, running: true };
  it('says it is looking, then none, then how many (not counting the room this computer hosts)', () => {
    expect(lanHint(EMPTY_LAN_LIST)).toBe('Looking for rooms on this network…');
    expect(lanHint(running)).toBe('No rooms seen on this network yet.');
    expect(lanHint({ ...running, servers: [server('own', true)] })).toBe('No rooms seen on this network yet.');
    expect(lanHint({ ...running, servers: [server('a')] })).toBe('1 room open on this network now.');
    expect(lanHint({ ...running, servers: [server('a'), server('b'), server('c', true)] })).toBe(
      '2 rooms open on this network now.',
    );
  });

  it('says when the search cannot run', () => {
    expect(lanHint({ ...running, error: 'EADDRINUSE' })).toBe('Can’t search this network right now.');
  });
});
