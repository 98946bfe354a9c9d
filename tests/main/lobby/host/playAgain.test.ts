import { afterEach, describe, expect, it } from 'vitest';
import type { LobbyHost } from '../../../../main/lobby/host/lobbyHost';
import type { LobbyState } from '../../../../shared/lobby/lobbyState';
import { waitFor } from '../../../support/waitFor';
import { loopbackGuest, loopbackHost } from '../../../support/loopbackRoom';

// Loopback only: the host binds 127.0.0.1, discovery on an ephemeral port.
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const host = () => loopbackHost(cleanups, { colour: '#ff5577', discovery: { port: 0 } });
const join = (h: LobbyHost, name: string) => loopbackGuest(cleanups, h.port, name, { colour: '#22cc88' });

describe('Play again from the results', () => {
  it('starts the same game again with the same players, and every guest follows the lobby → playing', async () => {
    const h = await host();
    const gus = await join(h, 'Gus');
    const ida = await join(h, 'Ida');
    gus.setReady(true);
    ida.setReady(true);
    await waitFor(() => h.state.players.every((p) => p.host || p.ready), 3000, 'both ready');
    h.startGame();
    await waitFor(() => gus.state.phase === 'playing' && ida.state.phase === 'playing', 3000, 'first round');
    const phases: string[] = [];
    gus.onState((state: LobbyState) => phases.push(state.phase));

    h.playAgain();
    expect(h.state.phase).toBe('playing');
    expect(h.state.gameId).toBe('tag');
    await waitFor(() => phases.includes('lobby') && phases.at(-1) === 'playing', 3000, 'Gus follows');
    const seats = (state: LobbyState) => state.players.map((p) => [p.name, p.host || p.ready]);
    expect(seats(h.state)).toEqual([
      ['Hana', true],
      ['Gus', true],
      ['Ida', true],
    ]);
    expect(seats(gus.state)).toEqual(seats(h.state));
    await waitFor(() => ida.state.revision === h.state.revision, 3000, 'Ida in step');
    expect(ida.state.phase).toBe('playing');
  });

  it('is refused outside a round', async () => {
    const h = await host();
    expect(() => h.playAgain()).toThrow(/no round/);
    expect(h.state.phase).toBe('lobby');
  });
});
