import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Server } from '../../../main/net/index';
import { LobbyHost } from '../../../main/lobby/host/lobbyHost';
import { LobbyGuest, type LobbyEnd } from '../../../main/lobby/lobbyGuest';
import { LOBBY_MAX_MESSAGE_BYTES } from '../../../main/lobby/lobbyTransport';
import { createLobbyState } from '../../../shared/lobby/lobbyState';
import type { Logger } from '../../../main/base/logger';
import { waitFor } from '../../support/waitFor';
import { loggerSpy as spyLogger } from '../ipc/loggerSpy';

// Real hosts and guests on 127.0.0.1 with discovery off; the "malicious host" is a bare transport server.
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function join(port: number, logger?: Logger): Promise<LobbyGuest> {
  const g = await LobbyGuest.join({
    host: '127.0.0.1',
    port,
    playerName: 'Gus',
    colour: '#3ddc97',
    timeout: 2,
    ...(logger ? { logger } : {}),
  });
  cleanups.push(() => g.leave());
  return g;
}

describe('a guest flooding the room', () => {
  it('gets 5 chat lines per 5 s and 10 ready toggles; the rest is dropped before parsing', async () => {
    const h = await LobbyHost.start({
      roomName: 'Flood',
      playerName: 'Hana',
      colour: '#a3e048',
      bindAddress: '127.0.0.1',
      advertiseAddress: '127.0.0.1',
      discovery: false,
    });
    cleanups.push(() => h.close());
    const g = await join(h.port);
    for (let i = 0; i < 200; i++) g.transport.send('lobby.chat', { text: `spam ${i}` }, Channel.RELIABLE_ORDERED);
    for (let i = 0; i < 50; i++) g.setReady(i % 2 === 0);
    await waitFor(() => h.stats().droppedChat === 195 && h.stats().droppedReady === 40, 5000, 'the flood counted');
    expect(h.state.chat.map((l) => l.text)).toEqual(['spam 0', 'spam 1', 'spam 2', 'spam 3', 'spam 4']);
    expect(h.state.players[1]?.ready).toBe(false); // the tenth toggle (index 9) was "not ready"
  });
});

/** A bare transport server that answers a lobby hello with whatever the test wants. */
async function maliciousHost(onHello: (server: Server, peerId: number) => void): Promise<Server> {
  const server = await Server.listen({ port: 0, host: '127.0.0.1' });
  cleanups.push(() => server.close());
  server.onMessage('lobby.hello', (peer) => onHello(server, peer.id));
  return server;
}

const fairState = () =>
  createLobbyState({ roomName: 'Trap', capacity: 4, passwordProtected: false }, { name: 'Mal', colour: '#a3e048' });
const player = (id: number) => ({ id, name: `P${id}`, colour: '#3ddc97', ready: false, host: false, pingMs: null });

describe('a hostile host', () => {
  it.each([
    [
      'a room over its capacity',
      { players: [fairState().players[0]!, ...Array.from({ length: 40 }, (_, i) => player(i + 1))] },
    ],
    ['a negative capacity', { capacity: -1 }],
    ['a 10,000-character room name', { roomName: 'x'.repeat(10_000) }],
    [
      'a colour that is a URL',
      { players: [{ ...fairState().players[0]!, colour: 'url(javascript:alert(1))' }, player(1)] },
    ],
    ['a bidi override in a name', { players: [{ ...fairState().players[0]!, name: 'Mal\u202e' }, player(1)] }],
    ['101 chat lines', { chat: Array.from({ length: 101 }, (_, id) => ({ id, from: 0, name: 'Mal', text: 'x' })) }],
  ])('is refused with a logged reason when its welcome has %s', async (_what, patch) => {
    const server = await maliciousHost((s, id) =>
      s.sendTo(
        id,
        'lobby.welcome',
        { you: id, state: { ...fairState(), players: [fairState().players[0]!, player(id)], ...patch } },
        Channel.RELIABLE_ORDERED,
      ),
    );
    const logger = spyLogger();
    await expect(join(server.port, logger)).rejects.toMatchObject({
      code: 'invalid-room',
      message: 'The host sent an invalid room.',
    });
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/^the host sent an invalid room: /));
  });

  it('cannot push a multi-megabyte view: the link carries at most 256 KiB per message', async () => {
    let refused: unknown;
    const server = await maliciousHost((s, id) => {
      const huge = { ...fairState(), players: Array.from({ length: 12_000 }, (_, i) => player(i)) };
      try {
        s.sendTo(id, 'lobby.welcome', { you: id, state: huge }, Channel.RELIABLE_ORDERED);
      } catch (error) {
        refused = error;
      }
    });
    await expect(join(server.port)).rejects.toMatchObject({ code: 'timeout' });
    expect(refused).toMatchObject({ name: 'PayloadTooLargeError' });
    expect(LOBBY_MAX_MESSAGE_BYTES).toBe(256 * 1024);
  });

  it('ends the stay when a later event is invalid or grows the room past its capacity', async () => {
    const ends: LobbyEnd[] = [];
    let send: ((event: object) => void) | undefined;
    const server = await maliciousHost((s, id) => {
      s.sendTo(
        id,
        'lobby.welcome',
        { you: id, state: { ...fairState(), players: [fairState().players[0]!, player(id)] } },
        Channel.RELIABLE_ORDERED,
      );
      send = (event) => s.sendTo(id, 'lobby.event', { event, revision: 1 }, Channel.RELIABLE_ORDERED);
    });
    const logger = spyLogger();
    const g = await join(server.port, logger);
    g.onEnd((end) => ends.push(end));
    send!({ kind: 'joined', player: player(7) });
    send!({ kind: 'joined', player: player(8) });
    await waitFor(() => g.state.players.length === 4, 2000, 'two fair joins');
    send!({ kind: 'joined', player: player(9) });
    await waitFor(() => ends.length === 1, 2000, 'the stay to end');
    expect(ends[0]).toEqual({ code: 'invalid-room', message: 'The host sent an invalid room.' });
    expect(g.state.players).toHaveLength(4);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/past its capacity of 4/));

    const second = await join(server.port, logger);
    const secondEnds: LobbyEnd[] = [];
    second.onEnd((end) => secondEnds.push(end));
    send!({ kind: 'pings', pings: Array.from({ length: 17 }, (_, i) => [i, 1]) });
    await waitFor(() => secondEnds.length === 1, 2000, 'the second stay to end');
    expect(secondEnds[0]?.code).toBe('invalid-room');
  });
});
