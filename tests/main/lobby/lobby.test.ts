import { afterEach, describe, expect, it } from 'vitest';
import { createSocket } from 'node:dgram';
import { Channel, Client, Server, discoverLanServers } from '../../../main/net/index';
import type { LobbyHost } from '../../../main/lobby/host/lobbyHost';
import { type LobbyHostOptions } from '../../../main/lobby/host/lobbyHost';
import { LobbyGuest, type LobbyEnd } from '../../../main/lobby/lobbyGuest';
import { JOIN_DROPPED_MESSAGE, LobbyJoinError } from '../../../main/lobby/lobbyErrors';
import { UnknownGameError } from '../../../shared/games/createRegistry';
import { LOBBY_PROTOCOL_VERSION, createLobbyState } from '../../../shared/lobby/lobbyState';
import { decode } from '../../../shared/roomCode';
import { waitFor } from '../../support/waitFor';
import { loopbackGuest, loopbackHost } from '../../support/loopbackRoom';

// Loopback only: bind 127.0.0.1, discovery on an ephemeral port, searched via 127.255.255.255.
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

// Discovery on an ephemeral port, searched via 127.255.255.255.
const host = (options: Partial<LobbyHostOptions> = {}) =>
  loopbackHost(cleanups, { colour: '#ff5577', discovery: { port: 0 }, ...options });

const join = (h: LobbyHost, name: string, extra: { password?: string } = {}) =>
  loopbackGuest(cleanups, h.port, name, { colour: '#22cc88', ...extra });

describe('lobby host and guests on loopback', () => {
  it('makes a room code for the advertised address and is listed by discovery', async () => {
    const h = await host({ capacity: 6, password: 'pw' });
    expect(decode(h.code)).toEqual({ host: '127.0.0.1', port: h.port });
    const found = await discoverLanServers({ port: h.discoveryPort!, targets: ['127.255.255.255'], timeoutMs: 400 });
    // The host's own seat counts as a player.
    expect(found[0]).toMatchObject({
      name: 'Friday LAN',
      playerCount: 1,
      capacity: 6,
      passwordProtected: true,
      gameName: 'LAN Party Tag',
    });
    await join(h, 'Gus', { password: 'pw' });
    const after = await discoverLanServers({ port: h.discoveryPort!, targets: ['127.255.255.255'], timeoutMs: 400 });
    expect(after[0]?.playerCount).toBe(2);
  });

  it('joins, agrees on state, chats both ways, readies and starts', async () => {
    const h = await host();
    const g = await join(h, 'Gus');
    expect(g.you).toBe(1);
    expect(g.state.players.map((p) => p.name)).toEqual(['Hana', 'Gus']);
    expect([h.state.gameId, g.state.gameId]).toEqual(['tag', 'tag']);
    expect(() => h.startGame()).toThrow(/ready/);
    h.chat('welcome!');
    g.chat('  hi there ');
    g.setReady(true);
    await waitFor(
      () => h.state.players[1]?.ready === true && g.state.chat.length === 2 && h.state.chat.length === 2,
      3000,
      'chat and ready',
    );
    expect(g.state.chat.map((l) => `${l.name}: ${l.text}`)).toEqual(['Hana: welcome!', 'Gus: hi there']);
    h.startGame();
    await waitFor(() => g.state.phase === 'playing', 2000, 'start');
    const strip = (s: typeof h.state) => ({ ...s, players: s.players.map((p) => ({ ...p, pingMs: null })) });
    expect(strip(g.state)).toEqual(strip(h.state));
  });

  it('tells everyone each guest’s path to the host: the LAN by default, what pathOf says otherwise', async () => {
    const h = await host({ pathOf: (peer) => (peer.id === 2 ? 'relayed' : 'lan') });
    const gus = await join(h, 'Gus');
    const ida = await join(h, 'Ida');
    await waitFor(() => gus.state.players.length === 3, 3000, 'Ida seen by Gus');
    const paths = (state: typeof h.state) => state.players.map((p) => [p.name, p.path]);
    expect(paths(h.state)).toEqual([
      ['Hana', undefined],
      ['Gus', 'lan'],
      ['Ida', 'relayed'],
    ]);
    expect(paths(gus.state)).toEqual(paths(h.state));
    expect(paths(ida.state)).toEqual(paths(h.state));
  });

  it('reports pings of guests', async () => {
    const h = await host({ pingInterval: 0.2 });
    const g = await join(h, 'Gus');
    await waitFor(() => typeof g.state.players.find((p) => p.id === g.you)?.pingMs === 'number', 4000, 'ping');
  });

  it('refuses a wrong password, a full room and a running round with clear reasons', async () => {
    const h = await host({ capacity: 2, password: 'secret' });
    await expect(join(h, 'Eve', { password: 'nope' })).rejects.toMatchObject({
      code: 'wrong-password',
      message: expect.stringMatching(/Wrong password/),
    });
    await expect(join(h, 'Eve')).rejects.toBeInstanceOf(LobbyJoinError);
    const g = await join(h, 'Gus', { password: 'secret' });
    await expect(join(h, 'Max', { password: 'secret' })).rejects.toMatchObject({ code: 'full' });
    g.setReady(true);
    await waitFor(() => h.state.players[1]?.ready === true, 2000, 'ready');
    expect(h.state.players).toHaveLength(2);
  });

  it('refuses a guest speaking another lobby version', async () => {
    const h = await host();
    const raw = new Client();
    cleanups.push(() => raw.close());
    const rejected: unknown[] = [];
    raw.onMessage('lobby.rejected', (p) => rejected.push(p));
    await raw.connect('127.0.0.1', h.port);
    raw.send('lobby.hello', { v: 99, name: 'Old', colour: '#000000' }, Channel.RELIABLE_ORDERED);
    await waitFor(() => rejected.length === 1, 2000, 'rejection');
    expect(rejected[0]).toMatchObject({ reason: 'version-mismatch' });
    expect(h.state.players).toHaveLength(1);
  });

  it('tells a guest of another lobby version its own app version and protocol', async () => {
    const h = await host({ appVersion: '1.4.0' });
    const raw = new Client();
    cleanups.push(() => raw.close());
    const rejected: unknown[] = [];
    raw.onMessage('lobby.rejected', (p) => rejected.push(p));
    await raw.connect('127.0.0.1', h.port);
    raw.send('lobby.hello', { v: 99, name: 'Future', colour: '#000000', app: '9.0.0' }, Channel.RELIABLE_ORDERED);
    await waitFor(() => rejected.length === 1, 2000, 'rejection');
    expect(rejected[0]).toMatchObject({
      reason: 'version-mismatch',
      hostApp: '1.4.0',
      hostProtocol: LOBBY_PROTOCOL_VERSION,
    });
  });

  it('a guest refused for its version names both versions and says it must update', async () => {
    // A host from a later release: it speaks the next lobby protocol and refuses our hello.
    const later = await Server.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => later.close());
    const hellos: unknown[] = [];
    later.onMessage('lobby.hello', (peer, payload) => {
      hellos.push(payload);
      const refusal = {
        reason: 'version-mismatch',
        message: 'other version',
        hostApp: '2.0.0',
        hostProtocol: LOBBY_PROTOCOL_VERSION + 1,
      };
      later.sendTo(peer.id, 'lobby.rejected', refusal, Channel.RELIABLE_ORDERED);
    });
    const joining = LobbyGuest.join({
      host: '127.0.0.1',
      port: later.port,
      playerName: 'Gus',
      colour: '#3ddc97',
      timeout: 2,
      appVersion: '1.3.1',
    });
    await expect(joining).rejects.toMatchObject({
      code: 'version-mismatch',
      message: 'The host runs LAN Party 2.0.0, you run 1.3.1: update your app.',
    });
    expect(hellos[0]).toMatchObject({ v: LOBBY_PROTOCOL_VERSION, name: 'Gus', app: '1.3.1' });
  });

  it('ignores malformed guest messages without harm', async () => {
    const h = await host();
    const g = await join(h, 'Gus');
    const raw = g.transport;
    raw.send('lobby.chat', { text: 'x'.repeat(500) }, Channel.RELIABLE_ORDERED);
    raw.send('lobby.ready', { ready: 'yes' }, Channel.RELIABLE_ORDERED);
    raw.send('lobby.chat', { text: 42 }, Channel.RELIABLE_ORDERED);
    g.chat('still here');
    await waitFor(() => h.state.chat.length === 1, 2000, 'valid chat');
    expect(h.state.chat[0]!.text).toBe('still here');
    expect(h.state.players[1]!.ready).toBe(false);
    expect(() => g.chat('   ')).toThrow();
  });

  it('kicks a guest with a message, and a leaving guest disappears for everyone', async () => {
    const h = await host();
    const a = await join(h, 'Ann');
    const b = await join(h, 'Bob');
    const ends: LobbyEnd[] = [];
    a.onEnd((e) => ends.push(e));
    expect(h.kick(a.you)).toBe(true);
    expect(h.kick(0)).toBe(false);
    await waitFor(() => ends.length === 1, 3000, 'kick');
    expect(ends[0]).toMatchObject({ code: 'kicked', message: expect.stringMatching(/removed you/) });
    await waitFor(() => b.state.players.length === 2, 2000, 'b sees kick');
    await b.leave();
    await waitFor(() => h.state.players.length === 1, 2000, 'leave');
  });

  it('ends the room for everyone when the host leaves', async () => {
    const h = await host();
    const g = await join(h, 'Gus');
    const ends: LobbyEnd[] = [];
    g.onEnd((e) => ends.push(e));
    await h.close();
    await waitFor(() => ends.length === 1, 3000, 'room end');
    expect(ends[0]!.code).toBe('host-closed');
    expect(ends[0]!.message).toMatch(/closed the room/);
  });

  it('times out joining a silent address with advice', async () => {
    const silent = createSocket('udp4');
    await new Promise<void>((r) => silent.bind(0, '127.0.0.1', r));
    cleanups.push(() => silent.close());
    await expect(
      LobbyGuest.join({
        host: '127.0.0.1',
        port: silent.address().port,
        playerName: 'Gus',
        colour: '#123456',
        timeout: 0.5,
      }),
    ).rejects.toMatchObject({
      code: 'timeout',
      message: expect.stringMatching(/same network/),
    });
  });

  it('tells a guest whose connection the host let go before answering just that, not that the room closed', async () => {
    // A transport that drops each connection at once, as a host's hello deadline or full pre-lobby slots do.
    const server = await Server.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => server.close());
    server.onConnect((peer) => server.disconnect(peer.id, 'no hello in time'));
    await expect(
      LobbyGuest.join({ host: '127.0.0.1', port: server.port, playerName: 'Gus', colour: '#123456', timeout: 5 }),
    ).rejects.toMatchObject({ code: 'host-closed', message: JOIN_DROPPED_MESSAGE });
    expect(JOIN_DROPPED_MESSAGE).toMatch(/before letting you in/);
  });

  it('names a busy port and validates capacity against the game', async () => {
    const h = await host();
    await expect(host({ port: h.port })).rejects.toThrow(`UDP port ${h.port}`);
    await expect(host({ capacity: 1 })).rejects.toThrow('capacity must be 2–16 players for Tag');
    await expect(host({ capacity: 17 })).rejects.toThrow('capacity must be 2–16 players for Tag');
    await expect(host({ gameId: 'chess' })).rejects.toThrow(UnknownGameError);
    expect((await host({ gameId: 'tag' })).state).toMatchObject({ gameId: 'tag', capacity: 8 });
  });
});

describe('the room’s game across LAN Party versions', () => {
  /** A host that welcomes everyone with `state` as written (another build's lobby), on loopback. */
  async function welcomingHost(state: Record<string, unknown>): Promise<Server> {
    const server = await Server.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => server.close());
    // A welcome lists the guest itself (a guest refuses one that does not).
    server.onMessage('lobby.hello', (peer) => {
      const you = { id: peer.id, name: 'Gus', colour: '#3ddc97', ready: false, host: false, pingMs: null };
      const players = [...(state.players as unknown[]), you];
      server.sendTo(peer.id, 'lobby.welcome', { you: peer.id, state: { ...state, players } }, Channel.RELIABLE_ORDERED);
    });
    return server;
  }
  const joinAt = (port: number) =>
    LobbyGuest.join({ host: '127.0.0.1', port, playerName: 'Gus', colour: '#3ddc97', timeout: 2 });
  const room = createLobbyState(
    { roomName: 'Older', capacity: 4, passwordProtected: false },
    { name: 'Olga', colour: '#a3e048' },
  );

  it('joins an older host that names no game as a tag room', async () => {
    const { gameId: _omitted, ...older } = room;
    const server = await welcomingHost(older);
    const g = await joinAt(server.port);
    cleanups.push(() => g.leave());
    expect(g.state).toMatchObject({ roomName: 'Older', gameId: 'tag' });
  });

  it('refuses, by name, a room playing a game this build does not have, and leaves it', async () => {
    const server = await welcomingHost({ ...room, gameId: 'chess' });
    const refused = await joinAt(server.port).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LobbyJoinError);
    expect(refused).toMatchObject({
      code: 'version-mismatch',
      message: 'This room plays “chess”, a game this version of LAN Party does not have. Update LAN Party to join.',
    });
    await waitFor(() => server.getPeers().length === 0, 3000, 'the refused guest to disconnect');
  });
});
