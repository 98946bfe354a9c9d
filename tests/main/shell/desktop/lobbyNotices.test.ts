import { describe, expect, it } from 'vitest';
import { lobbyNotices, noticeText } from '../../../../main/shell/desktop/lobbyNotices';
import { IDLE_LOBBY_VIEW, type LobbyView } from '../../../../shared/ipc/schemas/lobby';
import type { LobbyPlayer, LobbyState } from '../../../../shared/lobby/lobbyState';

const player = (id: number, name: string, ready = false): LobbyPlayer => ({
  id,
  name,
  colour: '#3ddc97',
  ready,
  host: id === 0,
  pingMs: null,
});

function room(role: 'host' | 'guest', players: LobbyPlayer[], phase: LobbyState['phase'] = 'lobby'): LobbyView {
  return {
    ...IDLE_LOBBY_VIEW,
    status: 'in-room',
    role,
    code: 'ABCDE-FGHJK',
    port: 9000,
    target: { host: '192.168.1.20', port: 9000 },
    you: role === 'host' ? 0 : 1,
    state: {
      roomName: 'Friday',
      gameId: 'tag',
      capacity: 8,
      passwordProtected: false,
      phase,
      players,
      chat: [],
      revision: 1,
    },
  };
}

describe('lobbyNotices', () => {
  it('someone else joining', () => {
    const before = room('host', [player(0, 'Hana')]);
    const after = room('host', [player(0, 'Hana'), player(1, 'Gus')]);
    expect(lobbyNotices(before, after)).toEqual([{ kind: 'player-joined', name: 'Gus' }]);
  });

  it('entering a room announces nobody, ourselves included', () => {
    const joining: LobbyView = { ...IDLE_LOBBY_VIEW, status: 'joining', target: { host: '192.168.1.20', port: 9000 } };
    const inside = room('guest', [player(0, 'Hana'), player(1, 'Gus'), player(2, 'Ivy')]);
    expect(lobbyNotices(joining, inside)).toEqual([]);
    expect(lobbyNotices(IDLE_LOBBY_VIEW, room('host', [player(0, 'Hana')]))).toEqual([]);
  });

  it('a different room (left one, joined another) announces nobody', () => {
    const before = room('guest', [player(0, 'Hana'), player(1, 'Gus')]);
    const other = { ...room('guest', [player(0, 'Max'), player(1, 'Gus'), player(2, 'Zoe')]) };
    const moved: LobbyView = { ...other, target: { host: '192.168.1.99', port: 9000 } };
    expect(lobbyNotices(before, moved)).toEqual([]);
  });

  it('everyone ready: told to the host only', () => {
    const before = room('host', [player(0, 'Hana'), player(1, 'Gus', true), player(2, 'Ivy')]);
    const after = room('host', [player(0, 'Hana'), player(1, 'Gus', true), player(2, 'Ivy', true)]);
    expect(lobbyNotices(before, after)).toEqual([{ kind: 'all-ready' }]);
    const asGuest = (view: LobbyView): LobbyView => ({ ...view, role: 'guest', you: 1 });
    expect(lobbyNotices(asGuest(before), asGuest(after))).toEqual([]);
    // Still ready after a ping update: not again.
    expect(lobbyNotices(after, { ...after, state: { ...after.state!, revision: 2 } })).toEqual([]);
  });

  it('the round starting', () => {
    const ready = [player(0, 'Hana'), player(1, 'Gus', true)];
    expect(lobbyNotices(room('guest', ready), room('guest', ready, 'playing'))).toEqual([{ kind: 'round-started' }]);
    expect(lobbyNotices(room('guest', ready, 'playing'), room('guest', ready, 'lobby'))).toEqual([]);
  });

  it('the room ending announces nothing', () => {
    const ended: LobbyView = { ...room('guest', [player(0, 'Hana')]), status: 'ended' };
    expect(lobbyNotices(room('guest', [player(0, 'Hana'), player(1, 'Gus')]), ended)).toEqual([]);
  });

  it('words each notice with the room name', () => {
    expect(noticeText({ kind: 'player-joined', name: 'Gus' }, 'Friday')).toEqual({
      title: 'Gus joined',
      body: 'Gus is in Friday.',
    });
    expect(noticeText({ kind: 'all-ready' }, 'Friday').title).toBe('Everyone is ready');
    expect(noticeText({ kind: 'round-started' }, 'Friday').body).toContain('Friday');
  });
});
