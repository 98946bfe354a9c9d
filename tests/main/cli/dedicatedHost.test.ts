import { GameClient } from '../../../main/game/gameClient';
import { tagGame } from '../../../shared/games/tag/tagGame';
import { onAllReady } from '../../../main/cli/onAllReady';
import { afterEach, describe, expect, it } from 'vitest';
import { startDedicatedHost, type DedicatedHost, type DedicatedHostIo } from '../../../main/cli/dedicatedHost';
import type { HostCliOptions } from '../../../main/cli/hostCliArgs';
import { LobbyGuest } from '../../../main/lobby/lobbyGuest';
import type { LobbyHost } from '../../../main/lobby/host/lobbyHost';
import { discoverLanServers } from '../../../main/net/discovery';
import { decode } from '../../../shared/roomCode';
import { waitFor } from '../../support/waitFor';

// Loopback only: the room binds 127.0.0.1, discovery an ephemeral port without announcements, searched via
// 127.255.255.255.
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const options: HostCliOptions = {
  name: 'Friday LAN',
  port: 0,
  maxPlayers: 3,
  password: undefined,
  discoveryPort: 0,
  announce: false,
  bindAddress: '127.0.0.1',
  advertiseAddress: '127.0.0.1',
  logFile: undefined,
};

async function room(extra: Partial<HostCliOptions> = {}, io: Partial<DedicatedHostIo> = {}) {
  const lines: string[] = [];
  const dedicated: DedicatedHost = await startDedicatedHost(
    { ...options, ...extra },
    { log: (line) => lines.push(line), ...io },
  );
  cleanups.push(() => dedicated.close());
  return { dedicated, lines };
}

async function join(dedicated: DedicatedHost, name: string, password?: string): Promise<LobbyGuest> {
  const guest = await LobbyGuest.join({
    host: '127.0.0.1',
    port: dedicated.host.port,
    playerName: name,
    colour: '#22cc88',
    timeout: 3,
    ...(password ? { password } : {}),
  });
  cleanups.push(() => guest.leave());
  return guest;
}

describe('startDedicatedHost', () => {
  it('opens a room with a code, answers discovery and describes itself', async () => {
    const { dedicated } = await room({ password: 'pw' });
    expect(decode(dedicated.host.code)).toEqual({ host: '127.0.0.1', port: dedicated.host.port });
    expect(dedicated.banner).toContain(`Room code: ${dedicated.host.code}`);
    // 127.0.0.1 sits on lo, a /8: the short code carries its 24 host bits and the port.
    expect(dedicated.host.codes.shortCode).toMatch(/^[0-9A-Z]{5,7}$/);
    expect(dedicated.banner).toContain(`Short code: ${dedicated.host.codes.shortCode} (players on this network)`);
    expect(dedicated.banner).toContain(`Addresses: 127.0.0.1:${dedicated.host.port} (bound)`);
    expect(dedicated.banner).toContain('Players:   up to 3, password required');
    const found = await discoverLanServers({
      port: dedicated.host.discoveryPort!,
      targets: ['127.255.255.255'],
      timeoutMs: 300,
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ name: 'Friday LAN', passwordProtected: true });
  });

  it('advertises the players and seats the banner and log count: the host seat is nobody', async () => {
    const { dedicated, lines } = await room({ maxPlayers: 4 });
    const search = () =>
      discoverLanServers({ port: dedicated.host.discoveryPort!, targets: ['127.255.255.255'], timeoutMs: 300 });
    expect(dedicated.banner).toContain('Players:   up to 4');
    expect((await search())[0]).toMatchObject({ playerCount: 0, capacity: 4 });
    await join(dedicated, 'Gus');
    await waitFor(() => lines.length > 0, 3000, 'the join log');
    expect(lines).toEqual(['Gus joined as player 1 (1/4 players)']);
    expect((await search())[0]).toMatchObject({ playerCount: 1, capacity: 4 });
  });

  it('takes the number of players asked for, the host seat aside', async () => {
    const { dedicated } = await room({ maxPlayers: 1 });
    await join(dedicated, 'Gus');
    await expect(join(dedicated, 'Ida')).rejects.toMatchObject({ code: 'full' });
  });

  it('logs joins, chat, ready and leaves, starts a round when all are ready and ends it when all leave', async () => {
    const { dedicated, lines } = await room();
    const gus = await join(dedicated, 'Gus');
    const ida = await join(dedicated, 'Ida');
    gus.chat('hello room');
    gus.setReady(true);
    await waitFor(() => lines.includes('Gus is ready'), 3000, 'Gus ready');
    expect(dedicated.host.state.phase).toBe('lobby');
    ida.setReady(true);
    await waitFor(() => gus.state.phase === 'playing' && ida.state.phase === 'playing', 3000, 'the round to start');
    await gus.leave();
    await ida.leave();
    await waitFor(() => dedicated.host.state.phase === 'lobby', 3000, 'the room to return to the lobby');
    expect(lines).toEqual([
      'Gus joined as player 1 (1/3 players)',
      'Ida joined as player 2 (2/3 players)',
      '[chat] Gus: hello room',
      'Gus is ready',
      'Ida is ready',
      'Everyone is ready: starting a round',
      'Round started',
      'Gus left (1/3 players)',
      'Ida left (0/3 players)',
      'Everyone left the round',
      'Round over: back in the lobby',
    ]);
  });

  it('runs the game for two ready guests: both get the roster and snapshots, results, then the lobby', async () => {
    const results: string[][] = [];
    const { dedicated } = await room(
      {},
      {
        onAllReady: (host) =>
          onAllReady(host, { roundDuration: 1, resultsHoldMs: 50, onResults: (r) => results.push([...r.winners]) }),
      },
    );
    const gus = await join(dedicated, 'Gus');
    const ida = await join(dedicated, 'Ida');
    const rosters: string[][] = [];
    const holds: (number | undefined)[] = [];
    let snapshots = 0;
    for (const seat of [gus, ida]) {
      const link = new GameClient({ game: tagGame, transport: seat.transport, playerId: String(seat.you) });
      link.onRoster((r) => rosters.push(r.players.map((p) => p.name)));
      link.onSnapshot(() => (snapshots += 1));
      link.onResults((r) => holds.push(r.holdSeconds));
    }
    gus.setReady(true);
    ida.setReady(true);
    await waitFor(() => rosters.length === 2 && snapshots > 4, 4000, 'the game to run');
    expect(rosters).toEqual([
      ['Gus', 'Ida'],
      ['Gus', 'Ida'],
    ]);
    await waitFor(() => results.length === 1 && dedicated.host.state.phase === 'lobby', 6000, 'the round to end');
    // Each guest's winner screen counts down this room's hold, sent with the results.
    await waitFor(() => holds.length === 2, 3000, 'results at both guests');
    expect(holds).toEqual([0.05, 0.05]);
  });

  it('refuses to start a round for a single guest, since the dedicated seat does not play', () => {
    expect(() => onAllReady({ state: { players: [{ host: true }, { host: false }] } } as never)).toThrow(/two players/);
  });

  it('hands the room to onAllReady, once, and logs it when that fails', async () => {
    const calls: LobbyHost[] = [];
    const { dedicated, lines } = await room(
      {},
      {
        onAllReady: (host) => {
          calls.push(host);
          throw new Error('no game loaded');
        },
      },
    );
    const gus = await join(dedicated, 'Gus');
    gus.setReady(true);
    await waitFor(() => lines.includes('Could not start the round: no game loaded'), 3000, 'the failure to be logged');
    expect(calls).toEqual([dedicated.host]);
    expect(dedicated.host.state.phase).toBe('lobby');
  });

  it('close tells the guests the host closed the room', async () => {
    const { dedicated } = await room();
    const gus = await join(dedicated, 'Gus');
    const ended = new Promise((resolve) => gus.onEnd(resolve));
    await dedicated.close();
    await dedicated.close();
    expect(await ended).toMatchObject({ code: 'host-closed' });
  });

  it('rejects with the port named when the game port is taken', async () => {
    const { dedicated } = await room();
    await expect(startDedicatedHost({ ...options, port: dedicated.host.port }, { log: () => {} })).rejects.toThrow(
      new RegExp(`UDP port ${dedicated.host.port} on 127\\.0\\.0\\.1 is already in use`),
    );
  });
});
