import { createSocket, type Socket } from 'node:dgram';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLobbyService } from '../../../main/lobby/lobbyService';
import { createLanReach, OTHER_ROOM_SENTENCE } from '../../../main/reach/lan/index';
import type { OpenRequest, RoomReach } from '../../../main/reach/roomReach';
import { LobbyJoinError } from '../../../main/lobby/lobbyErrors';
import type { LobbyJoinOptions } from '../../../main/lobby/lobbyGuest';
import { silentLogger } from '../../../main/base/logger';
import { resolveNetworkOptions, type NetworkOptions } from '../../../main/base/networkOptions';
import { IpcError } from '../../../shared/ipc/errors';
import type { LobbyView } from '../../../shared/ipc/schemas/lobby';
import { hostRoomInputSchema, lobbyViewSchema, roomCapacityRange } from '../../../shared/ipc/schemas/lobby';
import type { PlayerColor } from '../../../shared/ipc/schemas/settings';
import { decode, encode, encodeShortCode } from '../../../shared/roomCode';
import { waitFor } from '../../support/waitFor';
import { freeUdpPort, loopbackNetwork } from '../../support/loopbackNetwork';
import { loggerSpy } from '../ipc/loggerSpy';

// Real lobby hosts and guests on loopback: rooms bound to 127.0.0.1, discovery on a free port searched via
// 127.255.255.255 only.
const cleanups: Array<() => unknown> = [];
// One discovery port per test, as every app on a LAN shares 9998: a guest's probe reaches the host's responder.
let discoveryPort = 0;
beforeEach(async () => {
  discoveryPort = await freeUdpPort();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function service(
  name: string,
  extra: Partial<NetworkOptions> = {},
  colour: PlayerColor = '#3ddc97',
  internet?: RoomReach,
) {
  const network = resolveNetworkOptions(loopbackNetwork(discoveryPort, extra));
  const lobby = createLobbyService({
    network,
    settings: async () => ({
      playerName: name,
      playerColor: colour,
      onboarded: true,
      notifications: true,
      theme: 'system',
    }),
    platform: 'linux',
    logger: silentLogger,
    reaches: {
      lan: createLanReach({
        network,
        platform: 'linux',
        logger: silentLogger,
        lookup: async (host) => {
          if (host === 'party-pc') return '127.0.0.1';
          throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
        },
      }),
      ...(internet ? { internet } : {}),
    },
  });
  const views: LobbyView[] = [];
  lobby.onChange((view) => views.push(lobbyViewSchema.parse(view)));
  cleanups.push(() => lobby.close());
  return { lobby, views, last: () => views[views.length - 1] };
}

async function occupy(port = 0, address = '127.0.0.1'): Promise<Socket> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(port, address, () => resolve()));
  cleanups.push(() => new Promise<void>((resolve) => socket.close(() => resolve())));
  return socket;
}

async function rejection(promise: Promise<unknown> | (() => unknown)): Promise<IpcError> {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    expect(error).toBeInstanceOf(IpcError);
    return error as IpcError;
  }
  throw new Error('expected a rejection');
}

const names = (view: LobbyView | undefined) => view?.state?.players.map((p) => p.name);

describe('lobby service: host and guest on loopback', () => {
  it('hosts with defaults, a guest joins by code, they chat, ready up and start', async () => {
    const a = await service('Ada');
    const b = await service('Bob', {}, '#a3e048');
    await a.lobby.host({});
    const hosted = a.lobby.view();
    expect(hosted).toMatchObject({ status: 'in-room', role: 'host', you: 0, discoverable: true, end: null });
    expect(hosted.state).toMatchObject({
      roomName: "Ada's room",
      gameId: 'tag',
      capacity: 8,
      passwordProtected: false,
    });
    expect(a.views.map((v) => v.status)).toEqual(['hosting', 'in-room']);
    expect(decode(hosted.code!)).toEqual({ host: '127.0.0.1', port: hosted.port });
    expect(hosted.target).toEqual({ host: '127.0.0.1', port: hosted.port });

    await b.lobby.joinByCode({ code: hosted.code!.toLowerCase() });
    const joined = b.lobby.view();
    expect(joined).toMatchObject({ status: 'in-room', role: 'guest', code: hosted.code, port: hosted.port });
    expect(names(joined)).toEqual(['Ada', 'Bob']);
    expect(joined.state?.gameId).toBe('tag');
    // The code's address shows while the probe runs; the guest's room view goes out once, in revision order.
    expect(b.views.map((v) => v.status)).toEqual(['joining', 'in-room']);
    expect(b.views[1]).toEqual(joined);
    expect(b.views[1]!.revision).toBeGreaterThan(b.views[0]!.revision);
    expect(b.lobby.view()).toEqual(joined);
    await waitFor(() => names(a.last())?.length === 2, 3000, 'the host to see the guest');

    const blocked = await rejection(() => a.lobby.start());
    expect(blocked.code).toBe('failed-precondition');
    expect(blocked.message).toBe('Waiting for Bob to get ready.');

    a.lobby.chat('welcome!');
    b.lobby.chat('  hi there ');
    b.lobby.setReady(true);
    await waitFor(() => a.last()?.state?.players[1]?.ready === true, 3000, 'ready to reach the host');
    await waitFor(() => (b.last()?.state?.chat.length ?? 0) === 2, 3000, 'chat to reach the guest');
    expect(a.last()?.state?.chat.map((line) => `${line.name}: ${line.text}`)).toEqual([
      'Ada: welcome!',
      'Bob: hi there',
    ]);
    expect(b.last()?.state?.chat.map((line) => line.text)).toEqual(['welcome!', 'hi there']);

    a.lobby.start();
    expect(a.lobby.view().state?.phase).toBe('playing');
    await waitFor(() => b.last()?.state?.phase === 'playing', 3000, 'the guest to see the round start');
    a.lobby.endRound();
    await waitFor(() => b.last()?.state?.phase === 'lobby', 3000, 'the guest to see the round end');
    expect(a.lobby.session()?.role).toBe('host');
    expect(b.lobby.session()?.role).toBe('guest');
  });

  it('only the host may kick or start; kicking ends the guest’s stay with a message', async () => {
    const a = await service('Ada');
    const b = await service('Bob');
    await a.lobby.host({ roomName: 'Kick test' });
    const hosted = a.lobby.view();
    await b.lobby.joinByAddress({ host: '127.0.0.1', port: hosted.port! });
    expect((await rejection(() => b.lobby.kick(0))).code).toBe('permission-denied');
    expect((await rejection(() => b.lobby.start())).message).toBe('Only the host can start the round.');
    expect((await rejection(() => a.lobby.kick(42))).code).toBe('not-found');
    await waitFor(() => names(a.last())?.length === 2, 3000, 'the guest to arrive');
    const guestId = a.last()!.state!.players[1]!.id;
    a.lobby.kick(guestId);
    await waitFor(() => b.last()?.status === 'ended', 3000, 'the guest to be removed');
    expect(b.last()?.end).toEqual({ code: 'kicked', message: 'The host removed you from the room.' });
    expect(b.lobby.session()).toBeNull();
    await b.lobby.leave();
    expect(b.lobby.view().status).toBe('idle');
  });

  it('joins by the short LAN code, completed from the guest’s own subnet and confirmed by a probe', async () => {
    const a = await service('Ada');
    const b = await service('Bob');
    await a.lobby.host({});
    const hosted = a.lobby.view();
    // Loopback is a /8 here: the code carries 127.0.0.1's 24 host bits and the (non-default) port.
    expect(hosted.shortCode).toMatch(/^[0-9A-Z]{5,7}$/);
    expect(hosted.shortCodeMissing).toBeNull();
    await b.lobby.joinByCode({ code: ` ${hosted.shortCode!.toLowerCase()} ` });
    const joined = b.lobby.view();
    expect(joined).toMatchObject({ status: 'in-room', target: { host: '127.0.0.1', port: hosted.port } });
    // A short code for a host that is not there fails fast, in words, with what was tried behind them.
    const other = encodeShortCode('127.0.0.2', '255.0.0.0', hosted.port!);
    if (!other.ok) throw new Error('no short code');
    const c = await service('Cy');
    const started = performance.now();
    const dead = await rejection(c.lobby.joinByCode({ code: other.code }));
    console.log(`[lobby] dead short code on loopback refused in ${(performance.now() - started).toFixed(0)} ms`);
    expect(dead).toMatchObject({ code: 'not-found' });
    expect(dead.message).toContain(`No room answered at 127.0.0.2:${hosted.port}.`);
    expect(dead.detail).toContain('discovery query to 127.0.0.2:');
  });

  it('hosts on the address the player picks, and refuses one that is not this machine’s', async () => {
    const a = await service('Ada');
    const refused = await rejection(a.lobby.host({ advertiseAddress: '10.9.8.7' }));
    expect(refused).toMatchObject({ code: 'invalid-argument' });
    expect(refused.message).toContain('10.9.8.7 is not an address of this computer');
    expect(a.lobby.view().status).toBe('idle');
    expect(await a.lobby.addresses()).toEqual({
      addresses: [
        { interfaceName: 'lo', address: '127.0.0.1', netmask: '255.0.0.0', vpn: false, shortCodeMissing: null },
      ],
      preferred: '127.0.0.1',
    });
    await a.lobby.host({ advertiseAddress: '127.0.0.1' });
    const hosted = a.lobby.view();
    expect(hosted.target?.host).toBe('127.0.0.1');
  });

  it('the host leaving ends the room for everyone with a message', async () => {
    const a = await service('Ada');
    const b = await service('Bob');
    await a.lobby.host({});
    const hosted = a.lobby.view();
    await b.lobby.joinByCode({ code: hosted.code! });
    await a.lobby.leave();
    expect(a.lobby.view().status).toBe('idle');
    await waitFor(() => b.last()?.status === 'ended', 3000, 'the guest to hear the room closed');
    expect(b.last()).toMatchObject({
      status: 'ended',
      end: { code: 'host-closed', message: 'The host closed the room.' },
      state: { roomName: "Ada's room" },
    });
    // A new join dismisses the ended room.
    const again = await rejection(b.lobby.joinByCode({ code: hosted.code! }));
    // The probe finds nobody there any more: said at once, with "try anyway" on offer (not-found).
    expect(again.code).toBe('not-found');
    expect(again.message).toMatch(/^No room answered at 127\.0\.0\.1:\d+\./);
    expect(b.last()?.status).toBe('idle');
  }, 10_000);

  it('asks for a password, refuses a wrong one, and lets the right one in', async () => {
    const a = await service('Ada');
    const b = await service('Bob');
    await a.lobby.host({ password: 'sesame' });
    const hosted = a.lobby.view();
    expect(hosted.state?.passwordProtected).toBe(true);
    const missing = await rejection(b.lobby.joinByCode({ code: hosted.code! }));
    expect(missing).toMatchObject({ code: 'permission-denied', message: 'This room needs a password.' });
    const wrong = await rejection(b.lobby.joinByCode({ code: hosted.code!, password: 'open' }));
    expect(wrong).toMatchObject({
      code: 'permission-denied',
      message: 'Wrong password for this room. Check it with the host.',
    });
    expect(b.last()?.status).toBe('idle');
    await b.lobby.joinByCode({ code: hosted.code!, password: 'sesame' });
    expect(b.lobby.view().status).toBe('in-room');
  });

  it('says when the room is full', async () => {
    const a = await service('Ada');
    const b = await service('Bob');
    const c = await service('Cy');
    await a.lobby.host({ capacity: 2 });
    const hosted = a.lobby.view();
    await b.lobby.joinByCode({ code: hosted.code! });
    const full = await rejection(c.lobby.joinByCode({ code: hosted.code! }));
    // Said by the probe's reply, before connecting; the host would say the same.
    expect(full).toMatchObject({ code: 'failed-precondition', message: 'The room is full.', detail: '2 of 2 players' });
    const forced = await rejection(c.lobby.joinByCode({ code: hosted.code!, probe: false }));
    expect(forced).toMatchObject({ code: 'failed-precondition', message: 'The room is full.' });
  });

  it('explains a mistyped code precisely, without touching the network', async () => {
    const b = await service('Bob');
    const typo = await rejection(b.lobby.joinByCode({ code: 'AB#CD-EFGHJ' }));
    expect(typo.code).toBe('invalid-argument');
    expect(typo.message).toBe("'#' at position 3 is not used in room codes.");
    const short = await rejection(b.lobby.joinByCode({ code: 'ABCD' }));
    expect(short.message).toBe('A room code has 5–7 characters (a short LAN code) or 10 (a full code); this has 4.');
    const valid = encodeShortCode('127.0.0.1', '255.0.0.0', 9100);
    if (!valid.ok) throw new Error('no short code');
    const at = [...valid.code].findIndex((c, i) => c !== valid.code[i + 1]);
    const typo2 = `${valid.code.slice(0, at)}${valid.code[at + 1]}${valid.code[at]}${valid.code.slice(at + 2)}`;
    const swapped = await rejection(b.lobby.joinByCode({ code: typo2 }));
    expect(swapped.message).toBe('This code has a typo: a character is wrong or two are swapped.');
    expect(b.views).toEqual([]);
  });

  it('times out with advice when nobody answers', async () => {
    const silent = await occupy();
    const b = await service('Bob', { joinTimeoutSec: 1 });
    const code = encode('127.0.0.1', silent.address().port);
    const started = performance.now();
    const dead = await rejection(b.lobby.joinByCode({ code }));
    const elapsed = performance.now() - started;
    console.log(`[lobby] dead full code on loopback refused in ${elapsed.toFixed(0)} ms`);
    expect(dead).toMatchObject({ code: 'not-found' });
    expect(dead.message).toMatch(/No room answered.*try anyway/);
    expect(dead.detail).toMatch(/discovery query to 127\.0\.0\.1:\d+: no answer to 3 queries/);
    expect(elapsed).toBeLessThan(1000); // generous: the probe gives up after 300 ms
    expect(b.views.map((v) => v.status)).toEqual(['joining', 'idle']);
    // "Try anyway" skips the probe and waits for the transport as before.
    const timeout = await rejection(b.lobby.joinByCode({ code, probe: false }));
    expect(timeout.code).toBe('unavailable');
    expect(timeout.message).toMatch(/did not answer.*firewall/);
    expect(b.views.map((v) => v.status)).toEqual(['joining', 'idle', 'joining', 'idle']);
    expect(b.views[2]?.target).toEqual({ host: '127.0.0.1', port: silent.address().port });
  });

  it('fails a stale code at once when its computer answers as another room, and says so', async () => {
    const a = await service('Ada');
    const b = await service('Bob', { joinTimeoutSec: 5 });
    await a.lobby.host({});
    const hosted = a.lobby.view();
    // The code named a room on a port that room no longer has; the computer still hosts the room above.
    const code = encode('127.0.0.1', await freeUdpPort());
    const started = performance.now();
    const stale = await rejection(b.lobby.joinByCode({ code }));
    const elapsed = performance.now() - started;
    console.log(`[lobby] stale code (the computer hosts another room) refused in ${elapsed.toFixed(0)} ms on loopback`);
    // This sentence comes only from the short connect wait (the join's own timeout says "did not answer"), so it
    // shows the short wait won without timing it; the time is printed.
    expect(stale).toMatchObject({ code: 'not-found', message: OTHER_ROOM_SENTENCE });
    expect(stale.detail).toContain(`answered as the room on port ${hosted.port}`);
    expect(b.views.map((v) => v.status)).toEqual(['joining', 'idle']);
    // The room the computer does host is still joined as before.
    await b.lobby.joinByCode({ code: hosted.code! });
    expect(b.lobby.view().status).toBe('in-room');
  });

  it('resolves host names for join by address and names one it cannot find', async () => {
    const a = await service('Ada');
    const b = await service('Bob');
    await a.lobby.host({});
    const hosted = a.lobby.view();
    const missing = await rejection(b.lobby.joinByAddress({ host: 'nowhere-pc', port: hosted.port! }));
    expect(missing.code).toBe('not-found');
    expect(missing.message).toContain('“nowhere-pc”');
    await b.lobby.joinByAddress({ host: 'party-pc', port: hosted.port! });
    const joined = b.lobby.view();
    expect(joined).toMatchObject({ status: 'in-room', target: { host: '127.0.0.1', port: hosted.port } });
  });

  it('hosts the chosen game and refuses an unknown one or a size the game cannot take, opening nothing', async () => {
    const a = await service('Ada');
    const unknown = await rejection(a.lobby.host({ gameId: 'chess' }));
    expect(unknown).toMatchObject({ code: 'invalid-argument', message: 'There is no game “chess” in this LAN Party.' });
    const tooBig = await rejection(a.lobby.host({ gameId: 'tag', capacity: 17 }));
    expect(tooBig).toMatchObject({ code: 'invalid-argument', message: 'A room of Tag takes 2–16 players, not 17.' });
    expect(a.views).toEqual([]);
    expect(a.lobby.view().status).toBe('idle');
    await a.lobby.host({ gameId: 'tag', capacity: 3 });
    const hosted = a.lobby.view();
    expect(hosted.state).toMatchObject({ gameId: 'tag', capacity: 3 });
  });

  it('the lobby.host schema names an unknown game, and a game’s limits bound the room size', () => {
    const parsed = hostRoomInputSchema.safeParse({ gameId: 'chess' });
    expect(parsed.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [['gameId'], 'There is no game “chess” in this LAN Party'],
    ]);
    expect(hostRoomInputSchema.parse({ gameId: 'tag' })).toEqual({ gameId: 'tag' });
    expect(hostRoomInputSchema.parse({})).toEqual({});
    expect(roomCapacityRange({ minPlayers: 2, maxPlayers: 16 })).toEqual({ min: 2, max: 16, default: 8 });
    expect(roomCapacityRange({ minPlayers: 1, maxPlayers: 4 })).toEqual({ min: 2, max: 4, default: 4 });
    expect(roomCapacityRange({ minPlayers: 10, maxPlayers: 12 })).toEqual({ min: 10, max: 12, default: 10 });
  });

  it('refuses a second room while in one, and actions while in none', async () => {
    const a = await service('Ada');
    await a.lobby.host({});
    expect((await rejection(a.lobby.host({}))).message).toBe('You are already in a room. Leave it first.');
    expect((await rejection(a.lobby.joinByCode({ code: encode('127.0.0.1', 9) }))).code).toBe('failed-precondition');
    await a.lobby.leave();
    expect((await rejection(() => a.lobby.chat('hello'))).message).toBe('You are not in a room.');
    expect((await rejection(() => a.lobby.setReady(true))).code).toBe('failed-precondition');
  });

  it('a join cancelled by leave does not stay in the room', async () => {
    const a = await service('Ada');
    const b = await service('Bob');
    await a.lobby.host({});
    const hosted = a.lobby.view();
    const pending = b.lobby.joinByCode({ code: hosted.code! });
    expect(b.lobby.view().status).toBe('joining');
    await b.lobby.leave();
    expect(b.lobby.view().status).toBe('idle');
    expect((await rejection(pending)).message).toMatch(/Cancelled/);
    expect(b.lobby.view().status).toBe('idle');
    await waitFor(() => names(a.last())?.length === 1, 3000, 'the cancelled guest to leave the host');
  });
});

describe('lobby service: ports', () => {
  it('falls back to a free port when the default game port is busy', async () => {
    const busy = await occupy();
    const a = await service('Ada', { defaultGamePort: busy.address().port });
    await a.lobby.host({});
    const hosted = a.lobby.view();
    expect(hosted.status).toBe('in-room');
    expect(hosted.port).not.toBe(busy.address().port);
  });

  it('explains a busy port the player chose, with a fix', async () => {
    const busy = await occupy();
    const a = await service('Ada');
    const error = await rejection(a.lobby.host({ port: busy.address().port }));
    expect(error.code).toBe('failed-precondition');
    expect(error.message).toContain(`UDP port ${busy.address().port} is already in use`);
    expect(error.message).toContain('leave the port empty');
    expect(a.lobby.view().status).toBe('idle');
    expect(a.views.map((v) => v.status)).toEqual(['hosting', 'idle']);
  });

  it('hosts without LAN discovery when the discovery port is taken, and says so', async () => {
    const discoveryPort = await freeUdpPort();
    await occupy(discoveryPort, '0.0.0.0');
    const a = await service('Ada', { discoveryPort });
    await a.lobby.host({});
    const hosted = a.lobby.view();
    expect(hosted).toMatchObject({ status: 'in-room', discoverable: false });
    expect(a.lobby.ownInstanceId()).toBeNull();
  });
});

describe('lobby service listeners', () => {
  it('reports a throwing listener, still notifies the others, and notifies nobody after close', async () => {
    const logger = loggerSpy();
    const network = resolveNetworkOptions(loopbackNetwork(await freeUdpPort()));
    const lobby = createLobbyService({
      network,
      reaches: { lan: createLanReach({ network, platform: 'linux', logger: silentLogger }) },
      settings: async () => ({
        playerName: 'Ada',
        playerColor: '#3ddc97',
        onboarded: true,
        notifications: true,
        theme: 'system',
      }),
      platform: 'linux',
      logger,
    });
    cleanups.push(() => lobby.close());
    const views: LobbyView[] = [];
    const sessions: unknown[] = [];
    lobby.onChange(() => {
      throw new Error('window gone');
    });
    lobby.onChange((view) => views.push(view));
    lobby.onSession((session) => sessions.push(session));
    await lobby.leave(); // not in a room: back to idle, which every listener hears
    expect(views).toEqual([lobby.view()]);
    expect(sessions).toEqual([null]);
    expect(logger.warn).toHaveBeenCalledExactlyOnceWith('lobby listener failed', new Error('window gone'));
    await lobby.close();
    const heard = [views.length, sessions.length];
    await lobby.leave();
    expect([views.length, sessions.length]).toEqual(heard);
  });
});

describe('lobby service: app version at join', () => {
  it('hands this app’s version to the join and passes the version refusal on word for word', async () => {
    const joins: LobbyJoinOptions[] = [];
    const network = resolveNetworkOptions(loopbackNetwork(await freeUdpPort()));
    const lobby = createLobbyService({
      network,
      reaches: { lan: createLanReach({ network, platform: 'linux', logger: silentLogger }) },
      settings: async () => ({
        playerName: 'Gus',
        playerColor: '#3ddc97',
        onboarded: true,
        notifications: true,
        theme: 'system',
      }),
      platform: 'linux',
      appVersion: '1.3.1',
      logger: silentLogger,
      joinGuest: async (options) => {
        joins.push(options);
        throw new LobbyJoinError('version-mismatch', 'The host runs LAN Party 2.0.0, you run 1.3.1: update your app.');
      },
    });
    cleanups.push(() => lobby.close());
    const error = await rejection(lobby.joinByCode({ code: encode('127.0.0.1', 9000), probe: false }));
    expect(error).toMatchObject({
      code: 'failed-precondition',
      message: 'The host runs LAN Party 2.0.0, you run 1.3.1: update your app.',
    });
    expect(joins[0]).toMatchObject({ host: '127.0.0.1', port: 9000, appVersion: '1.3.1' });
    expect(lobby.view().status).toBe('idle');
  });
});

describe('lobby service: what a hosted room tells its reaches', () => {
  it("asks for the room's capacity, says when the Server admits a guest and when it lets the guest go", async () => {
    const requests: OpenRequest[] = [];
    const admitted: string[] = [];
    const released: string[] = [];
    const internet: RoomReach = {
      locate: () => Promise.reject(new Error('not used')),
      open: async (request) => {
        requests.push(request);
        return {
          admitted: (source) => void admitted.push(`${source.address}:${source.port}`),
          release: async (source) => void released.push(`${source.address}:${source.port}`),
          close: async () => undefined,
        };
      },
    };
    const a = await service('Ada', {}, '#3ddc97', internet);
    const b = await service('Bob', {}, '#a3e048');
    await a.lobby.host({ reach: 'internet', capacity: 4 });
    expect(requests).toEqual([expect.objectContaining({ capacity: 4 })]);
    await b.lobby.joinByCode({ code: a.lobby.view().code! });
    await waitFor(() => admitted.length === 1, 3000, 'the admission');
    expect(admitted[0]).toMatch(/^127\.0\.0\.1:\d+$/);
    await b.lobby.leave();
    await waitFor(() => released.length === 1, 3000, 'the release');
    expect(released).toEqual(admitted);
  });
});
