import { describe, expect, it } from 'vitest';
import { withOwnLinkQuiet } from '../../../main/lobby/guestQuietLink';
import { createLobbyState } from '../../../shared/lobby/lobbyState';

describe('withOwnLinkQuiet', () => {
  const room = createLobbyState(
    { roomName: 'Den', capacity: 4, passwordProtected: false },
    { name: 'Ada', colour: '#3b82f6' },
  );
  const state = {
    ...room,
    players: [...room.players, { id: 3, name: 'Gus', colour: '#22c55e', ready: false, host: false, pingMs: 20 }],
  };

  it('marks only our own row, and clears it again without touching the others', () => {
    const marked = withOwnLinkQuiet(state, 3, true);
    expect(marked.players.map((p) => p.linkQuiet)).toEqual([undefined, true]);
    const cleared = withOwnLinkQuiet(marked, 3, false);
    expect(cleared.players[1]).toEqual(state.players[1]);
    expect('linkQuiet' in cleared.players[1]!).toBe(false);
    expect(cleared.players[0]).toBe(state.players[0]);
  });
});
