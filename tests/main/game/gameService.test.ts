import { testBackend } from '../../support/testBackend';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGameService, type GameEvents, type GameService } from '../../../main/game/gameService';
import { createLobbyService } from '../../../main/lobby/lobbyService';
import { createLanReach } from '../../../main/reach/lan/index';
import { silentLogger } from '../../../main/base/logger';
import { resolveNetworkOptions } from '../../../main/base/networkOptions';
import { LobbyGuest } from '../../../main/lobby/lobbyGuest';
import { LobbyHost } from '../../../main/lobby/host/lobbyHost';
import { MAX_INPUTS_PER_MESSAGE } from '../../../shared/game/gameProtocol';
import type { GameState } from '../../../shared/games/tag/types';
import { IpcError } from '../../../shared/ipc/errors';
import { createLobbyState } from '../../../shared/lobby/lobbyState';
import { FakeGuestTransport, FakeHostTransport } from './fakeTransports';
import {
  gameCurrentSchema,
  gameEndedSchema,
  gameInputRequestSchema,
  gameResultsSchema,
  gameRosterSchema,
  gameSnapshotEventSchema,
  netStatsSchema,
} from '../../../shared/ipc/schemas/game';
import { waitFor } from '../../support/waitFor';
import { freeUdpPort, loopbackNetwork } from '../../support/loopbackNetwork';

// Real lobby rooms on loopback (127.0.0.1, discovery off): the service runs the game on the room's transport.
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Recorded = { [K in keyof GameEvents]: { name: K; payload: GameEvents[K] } }[keyof GameEvents];
const schemas = {
  'game.roster': gameRosterSchema,
  'game.snapshot': gameSnapshotEventSchema,
  'game.results': gameResultsSchema,
  'game.ended': gameEndedSchema,
} as const;

/** A service whose events are checked against the IPC schemas and recorded. */
function gameService(extra: { roundDuration?: number; resultsHoldSeconds?: number } = {}) {
  const events: Recorded[] = [];
  const service = createGameService({
    emit: (name, payload) => {
      schemas[name].parse(payload);
      events.push({ name, payload } as Recorded);
    },
    roundDuration: extra.roundDuration ?? 60,
    resultsHoldSeconds: extra.resultsHoldSeconds ?? 0.2,
    conditioner: () => null,
    logger: silentLogger,
  });
  cleanups.push(() => service.stop());
  const of = <K extends keyof GameEvents>(name: K): GameEvents[K][] =>
    events.filter((e) => e.name === name).map((e) => e.payload as GameEvents[K]);
  return { service, events, of };
}

async function room(): Promise<LobbyHost> {
  const host = await LobbyHost.start({
    roomName: 'Tag night',
    playerName: 'Hana',
    colour: '#ff5577',
    bindAddress: '127.0.0.1',
    advertiseAddress: '127.0.0.1',
    discovery: false,
    pingInterval: 0.2,
  });
  cleanups.push(() => host.close());
  return host;
}

async function seat(host: LobbyHost, name: string): Promise<LobbyGuest> {
  const guest = await LobbyGuest.join({ host: '127.0.0.1', port: host.port, playerName: name, colour: '#22cc88' });
  cleanups.push(() => guest.leave());
  return guest;
}

const inputs = (from: number, count: number, moveX: number) =>
  Array.from({ length: count }, (_, i) => ({ sequence: from + i, moveX, moveY: 0, tag: false }));

/** Host and one guest in a room, each with a service; the guest is attached and ready. */
async function twoPlayers(
  extra: { roundDuration?: number; resultsHoldSeconds?: number } = {},
  guestExtra: { resultsHoldSeconds?: number } = extra,
) {
  const h = gameService(extra);
  const g = gameService({ ...extra, ...guestExtra });
  const lobbyHost = await room();
  const guest = await seat(lobbyHost, 'Gus');
  g.service.attachGuest(guest);
  guest.setReady(true);
  await waitFor(() => lobbyHost.state.players[1]?.ready === true, 3000, 'guest ready');
  return { h, g, lobbyHost, guest };
}

function start(service: GameService, lobbyHost: LobbyHost) {
  lobbyHost.startGame();
  return service.startAsHost(lobbyHost);
}

describe('game service and the room’s game', () => {
  const chessRoom = () => ({
    ...createLobbyState({ roomName: 'R', capacity: 4, passwordProtected: false }, { name: 'H', colour: '#ff5577' }),
    gameId: 'chess',
    phase: 'playing' as const,
  });
  const recordingLogger = () => {
    const errors: string[] = [];
    return { errors, logger: { ...silentLogger, error: (message: string) => errors.push(message) } };
  };

  it('does not start a hosted room whose game this build lacks: says why and returns the room to the lobby', () => {
    const { errors, logger } = recordingLogger();
    const events: string[] = [];
    const service = createGameService({ emit: (name) => events.push(name), logger });
    const transport = new FakeHostTransport();
    const room = { transport, state: chessRoom(), endGame: vi.fn(), onState: () => () => undefined };
    const unbind = service.bindLobby({ session: () => ({ role: 'host', host: room }), onSession: () => () => {} });
    expect(room.endGame).toHaveBeenCalledTimes(1);
    expect(errors).toEqual(['could not start the game']);
    expect(transport.sent).toEqual([]);
    expect(events).toEqual([]);
    expect(service.handlers['game.input']({ inputs: inputs(1, 1, 0), interpolationDelay: 0 })).toEqual({
      accepted: false,
    });
    unbind();
  });

  it('hosts at a fixed snapshot rate when told (snapshotsPerSecond), and refuses one that does not divide 60', () => {
    const service = createGameService({ emit: () => {}, logger: silentLogger, snapshotsPerSecond: 30 });
    cleanups.push(() => service.stop());
    const state = chessRoom();
    const players = [state.players[0]!, { ...state.players[0]!, id: 1, name: 'G', host: false }];
    const room = {
      transport: new FakeHostTransport(),
      state: { ...state, gameId: 'tag', players },
      endGame: vi.fn(),
      onState: () => () => undefined,
    };
    expect(service.startAsHost(room).snapshotsPerSecond).toBe(30);
    expect(() => createGameService({ emit: () => {}, snapshotsPerSecond: 7 })).toThrow(RangeError);
    expect(() => createGameService({ emit: () => {}, snapshotsPerSecond: 120 })).toThrow(RangeError);
  });

  it('a seat in such a room (which the lobby refuses to join) follows no game and says why', () => {
    const { errors, logger } = recordingLogger();
    const service = createGameService({ emit: () => {}, logger });
    const transport = new FakeGuestTransport();
    service.attachGuest({
      you: 1,
      state: chessRoom(),
      transport,
      onState: () => () => undefined,
      onEnd: () => () => undefined,
    });
    expect(errors).toEqual([expect.stringContaining('Unknown game “chess”')]);
    expect(transport.listenerCount).toBe(0);
    expect(service.handlers['game.get']()).toMatchObject({ you: '1', roster: null });
    service.stop();
  });
});

describe('game service on loopback', () => {
  it('forwards roster and snapshots to host and guest, and moves the guest by its inputs', async () => {
    const { h, g, lobbyHost } = await twoPlayers();
    expect(g.service.handlers['game.input']({ inputs: inputs(1, 1, 1), interpolationDelay: 0.1 })).toEqual({
      accepted: false,
    });
    const game = start(h.service, lobbyHost);
    await waitFor(() => g.of('game.roster').length > 0 && g.of('game.snapshot').length > 3, 3000, 'guest feed');
    const roster = g.of('game.roster')[0]!;
    expect(roster.game).toBe(game.gameId);
    expect(roster.players.map((p) => [p.id, p.name])).toEqual([
      ['0', 'Hana'],
      ['1', 'Gus'],
    ]);
    expect(h.of('game.roster')[0]).toEqual(roster);
    expect(g.of('game.snapshot').every((s) => s.game === game.gameId)).toBe(true);
    expect(gameCurrentSchema.parse(g.service.handlers['game.get']())).toEqual({ you: '1', roster, results: null });
    expect(h.service.handlers['game.get']()).toMatchObject({ you: '0', roster });

    const startX = (id: string) => (game.state as GameState).players.find((p) => p.id === id)!.x;
    const [guestX, hostX] = [startX('1'), startX('0')];
    // Spawns are random: a player against a wall or obstacle gets a second try the other way.
    const movedBoth = () => Math.abs(startX('1') - guestX) > 20 && Math.abs(startX('0') - hostX) > 20;
    let sequence = 1;
    for (const dir of [1, -1]) {
      for (let i = 0; i < 6; i++, sequence += 5) {
        expect(g.service.handlers['game.input']({ inputs: inputs(sequence, 5, dir), interpolationDelay: 0.1 })).toEqual(
          {
            accepted: true,
          },
        );
        h.service.handlers['game.input']({ inputs: inputs(sequence, 5, -dir), interpolationDelay: 0.05 });
        await new Promise((r) => setTimeout(r, 20));
      }
      await waitFor(movedBoth, 3000, 'both players moved').catch(() => undefined);
      if (movedBoth()) break;
    }
    expect(movedBoth()).toBe(true);
    expect(game.stats().inputs).toMatchObject({ accepted: expect.any(Number) });
  });

  it('checks renderer inputs with the running game’s own schema: a clear error, nothing sent', async () => {
    const { h, g, lobbyHost } = await twoPlayers();
    const game = start(h.service, lobbyHost);
    await waitFor(() => g.of('game.roster').length > 0, 3000, 'guest roster');
    const thrownBy = (fn: () => unknown): unknown => {
      try {
        fn();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const bad = [
      [{ sequence: 2, moveX: 2, moveY: 0, tag: false }, 'Input 2 is not a Tag input (moveX): '],
      [{ sequence: 2, moveX: 0, moveY: 0, tag: 1 }, 'Input 2 is not a Tag input (tag): '],
      [{ sequence: 2, moveX: 0, moveY: 0, tag: false, extra: true }, 'Input 2 is not a Tag input: '],
    ] as const;
    for (const [input, message] of bad) {
      for (const side of [h, g]) {
        const send = () =>
          side.service.handlers['game.input']({ inputs: [...inputs(1, 1, 0), input], interpolationDelay: 0.1 });
        const error = thrownBy(send);
        expect(error).toBeInstanceOf(IpcError);
        expect(error).toMatchObject({ code: 'invalid-argument', message: expect.stringContaining(message) });
      }
    }
    expect(game.stats().inputs.messages).toBe(0);
    expect(h.service.handlers['game.input']({ inputs: inputs(1, 1, 0), interpolationDelay: 0.1 })).toEqual({
      accepted: true,
    });
    expect(game.stats().inputs.messages).toBe(1);
  });

  it('shows results on both sides, holds, then returns the room to the lobby without a game.ended', async () => {
    // The guest's own backend would hold 9 s: the host's hold, 0.3 s, travels with the results to its countdown.
    const { h, g, lobbyHost, guest } = await twoPlayers(
      { roundDuration: 0.5, resultsHoldSeconds: 0.3 },
      { resultsHoldSeconds: 9 },
    );
    const game = start(h.service, lobbyHost);
    await waitFor(() => g.of('game.results').length === 1 && h.of('game.results').length === 1, 4000, 'results');
    const results = g.of('game.results')[0]!;
    expect(results).toEqual(h.of('game.results')[0]);
    expect(results).toMatchObject({ game: game.gameId, reason: 'finished', holdSeconds: 0.3 });
    expect(results.scores.map((s) => s.id)).toEqual(['0', '1']);
    expect(results.winners.length).toBeGreaterThan(0);
    expect(lobbyHost.state.phase).toBe('playing');
    expect(g.service.handlers['game.get']().results).toEqual(results);
    expect(g.service.handlers['game.input']({ inputs: inputs(1, 1, 0), interpolationDelay: 0.1 }).accepted).toBe(false);
    await waitFor(() => lobbyHost.state.phase === 'lobby' && guest.state.phase === 'lobby', 3000, 'back to lobby');
    expect([...h.of('game.ended'), ...g.of('game.ended')]).toEqual([]);
    expect(h.service.handlers['game.get']()).toMatchObject({ roster: null, results: null });
    expect(g.service.handlers['game.get']()).toMatchObject({ roster: null, results: null });
  });

  it('a second round gets a new game id and a fresh roster on the same guest attachment', async () => {
    const { h, g, lobbyHost, guest } = await twoPlayers({ roundDuration: 0.3, resultsHoldSeconds: 0.1 });
    const first = start(h.service, lobbyHost);
    await waitFor(() => lobbyHost.state.phase === 'lobby' && guest.state.phase === 'lobby', 4000, 'first round');
    guest.setReady(true);
    await waitFor(() => lobbyHost.state.players[1]?.ready === true, 3000, 'guest ready again');
    const second = start(h.service, lobbyHost);
    await waitFor(() => g.of('game.roster').length === 2, 3000, 'second roster');
    expect(second.gameId).not.toBe(first.gameId);
    expect(g.of('game.roster')[1]!.game).toBe(second.gameId);
    await waitFor(() => g.of('game.snapshot').some((s) => s.game === second.gameId), 3000, 'second snapshots');
  });

  it('ending the round early tells both renderers, and the host game stops', async () => {
    const { h, g, lobbyHost } = await twoPlayers();
    const game = start(h.service, lobbyHost);
    await waitFor(() => g.of('game.roster').length > 0, 3000, 'guest roster');
    lobbyHost.endGame();
    expect(game.running).toBe(false);
    expect(h.of('game.ended')).toEqual([{ game: game.gameId, reason: 'The host ended the round.' }]);
    await waitFor(() => g.of('game.ended').length === 1, 3000, 'guest told');
    expect(g.of('game.ended')[0]).toEqual({ game: game.gameId, reason: 'The host ended the round.' });
    expect(h.service.handlers['game.input']({ inputs: inputs(1, 1, 0), interpolationDelay: 0 }).accepted).toBe(false);
  });

  it('the host’s End round (game.finishRound): results for both now, under the hold; others get a clear error', async () => {
    const refusal = (service: GameService) => {
      try {
        service.handlers['game.finishRound']();
        return null;
      } catch (error) {
        return error instanceof IpcError ? { code: error.code, message: error.message } : error;
      }
    };
    const outside = gameService();
    expect(refusal(outside.service)).toEqual({ code: 'failed-precondition', message: 'You are not in a room.' });
    const { h, g, lobbyHost } = await twoPlayers({ roundDuration: 600, resultsHoldSeconds: 30 });
    const game = start(h.service, lobbyHost);
    await waitFor(() => g.of('game.roster').length > 0, 3000, 'guest roster');
    expect(refusal(g.service)).toEqual({ code: 'permission-denied', message: 'Only the host can end the round.' });
    expect(game.running).toBe(true);
    expect(refusal(h.service)).toBeNull();
    expect(game.running).toBe(false);
    expect(h.of('game.results')).toEqual([
      expect.objectContaining({ game: game.gameId, reason: 'finished', holdSeconds: 30 }),
    ]);
    await waitFor(() => g.of('game.results').length === 1, 3000, 'guest results');
    expect(g.of('game.results')[0]).toEqual(h.of('game.results')[0]);
    // The results hold as usual: the room stays in its round until the hold or the host's Back to the lobby.
    expect(lobbyHost.state.phase).toBe('playing');
    expect([...h.of('game.ended'), ...g.of('game.ended')]).toEqual([]);
    expect(refusal(h.service)).toEqual({ code: 'failed-precondition', message: 'The round is already over.' });
    expect(h.of('game.results')).toHaveLength(1);
    // Back in the lobby (the host's Back to the lobby): no round to end.
    lobbyHost.endGame();
    expect(refusal(h.service)).toEqual({ code: 'failed-precondition', message: 'No round is being played.' });
  });

  it('a guest leaving mid-round abandons it; the host closing the room ends the guest game', async () => {
    const { h, g, lobbyHost, guest } = await twoPlayers({ resultsHoldSeconds: 0.1 });
    start(h.service, lobbyHost);
    await waitFor(() => g.of('game.snapshot').length > 0, 3000, 'guest feed');
    await lobbyHost.close();
    await waitFor(() => g.of('game.ended').length === 1, 3000, 'guest game ended');
    expect(g.of('game.ended')[0]!.reason).toMatch(/host closed the room/i);
    expect(guest.endReason?.code).toBe('host-closed');

    const again = await twoPlayers({ resultsHoldSeconds: 0.1 });
    start(again.h.service, again.lobbyHost);
    await again.guest.leave();
    await waitFor(() => again.h.of('game.results').length === 1, 4000, 'abandoned');
    expect(again.h.of('game.results')[0]).toMatchObject({ reason: 'abandoned', winners: [] });
    await waitFor(() => again.lobbyHost.state.phase === 'lobby', 3000, 'host back in lobby');
  });

  it('net.stats reports the room links by role, with the conditioner', async () => {
    const idle = createGameService({ emit: () => {}, conditioner: () => null });
    expect(idle.handlers['net.stats']()).toEqual({
      role: null,
      links: [],
      conditioner: null,
      snapshotsPerSecond: null,
    });
    const { h, g, lobbyHost, guest } = await twoPlayers();
    const game = start(h.service, lobbyHost);
    await waitFor(() => h.service.handlers['net.stats']().links[0]?.rttMs != null, 5000, 'host rtt');
    await waitFor(() => g.service.handlers['net.stats']().links[0]?.rttMs != null, 5000, 'guest rtt');
    const hostStats = netStatsSchema.parse(h.service.handlers['net.stats']());
    expect(hostStats).toMatchObject({ role: 'host', links: [{ peerId: 1, name: 'Gus' }], conditioner: null });
    // The host reports the rate it chose; the guest the rate it receives, once snapshots have come for a while.
    expect(hostStats.snapshotsPerSecond).toBe(game.stats().snapshotsPerSecond);
    await waitFor(() => (g.service.handlers['net.stats']().snapshotsPerSecond ?? 0) > 0, 5000, 'guest snapshot rate');
    const guestStats = netStatsSchema.parse(g.service.handlers['net.stats']());
    const transportRtt = guest.transport.stats()?.rtt; // the same sample, in the same turn: seconds
    expect(guestStats).toMatchObject({ role: 'guest', links: [{ peerId: 0, name: 'Hana' }] });
    // In milliseconds: the transport's figure × 1000, whatever a busy machine made the round trip (a bound on the
    // value itself, "< 1000", fails whenever a starved process answers a heartbeat over a second late).
    expect(transportRtt).toBeGreaterThan(0);
    expect(guestStats.links[0]!.rttMs).toBe(transportRtt! * 1000);

    const shaped = { latencyMs: 40, jitterMs: 5, loss: 0.02 };
    const withConditioner = createGameService({
      emit: () => {},
      conditioner: () => ({ upstream: shaped, downstream: shaped }),
    });
    expect(withConditioner.handlers['net.stats']().conditioner).toEqual({ upstream: shaped, downstream: shaped });
  });

  it('follows the lobby service: starts on lobby.start, attaches guests on join, stops on leave', async () => {
    const discoveryPort = await freeUdpPort();
    const lobbyOf = (name: string) => {
      const network = resolveNetworkOptions(loopbackNetwork(discoveryPort));
      const lobby = createLobbyService({
        network,
        reaches: { lan: createLanReach({ network, platform: 'linux', logger: silentLogger }) },
        settings: async () => ({
          playerName: name,
          playerColor: '#3ddc97',
          onboarded: true,
          notifications: true,
          theme: 'system',
        }),
        platform: 'linux',
        logger: silentLogger,
      });
      cleanups.push(() => lobby.close());
      return lobby;
    };
    const [hostLobby, guestLobby] = [lobbyOf('Ada'), lobbyOf('Bo')];
    const [h, g] = [gameService({ roundDuration: 30 }), gameService({ roundDuration: 30 })];
    cleanups.push(h.service.bindLobby(hostLobby), g.service.bindLobby(guestLobby));
    await hostLobby.host({ roomName: 'Bound' });
    const view = hostLobby.view();
    await guestLobby.joinByCode({ code: view.code! });
    guestLobby.setReady(true);
    await waitFor(() => hostLobby.view().state?.players[1]?.ready === true, 3000, 'ready');
    hostLobby.start();
    await waitFor(() => g.of('game.snapshot').length > 0 && h.of('game.snapshot').length > 0, 3000, 'game runs');
    expect(g.of('game.roster')[0]!.players.map((p) => p.name)).toEqual(['Ada', 'Bo']);
    await guestLobby.leave();
    expect(g.of('game.ended')).toEqual([{ game: g.of('game.roster')[0]!.game, reason: 'You left the room.' }]);
    await waitFor(() => h.of('game.results').length === 1, 4000, 'host sees the round abandoned');
  });

  it('the game.input schema bounds what a renderer may send, whatever the game', () => {
    const ok = { inputs: inputs(1, MAX_INPUTS_PER_MESSAGE, 1), interpolationDelay: 0.1 };
    expect(gameInputRequestSchema.safeParse(ok).success).toBe(true);
    const bad = [
      { ...ok, inputs: inputs(1, MAX_INPUTS_PER_MESSAGE + 1, 1) },
      { ...ok, inputs: [{ sequence: 0, moveX: 0, moveY: 0, tag: false }] },
      { ...ok, inputs: [{ sequence: 2 ** 24, moveX: 0, moveY: 0, tag: false }] },
      { ...ok, inputs: [{ moveX: 0, moveY: 0, tag: false }] },
      { ...ok, inputs: [[1, 0, 0, 0]] },
      { ...ok, inputs: [null] },
      { ...ok, interpolationDelay: -1 },
      { ...ok, extra: true },
    ];
    for (const input of bad) expect(gameInputRequestSchema.safeParse(input).success, JSON.stringify(input)).toBe(false);
  });

  it('is wired into the backend: game and net requests go through the gateway with validated input', async () => {
    const backend = await testBackend(cleanups, {
      network: loopbackNetwork(await freeUdpPort()),
      game: { roundDuration: 5 },
    });
    const ctx = { transport: 'websocket' } as const;
    const dispatch = (name: string, input?: unknown) => backend.gateway.dispatch(name, input, ctx);
    expect(await dispatch('game.get')).toEqual({ ok: true, value: { you: null, roster: null, results: null } });
    expect(await dispatch('net.stats')).toEqual({
      ok: true,
      value: { role: null, links: [], conditioner: null, snapshotsPerSecond: null },
    });
    const input = { inputs: inputs(1, 2, 1), interpolationDelay: 0.1 };
    expect(await dispatch('game.input', input)).toEqual({ ok: true, value: { accepted: false } });
    for (const bad of [undefined, {}, { ...input, inputs: inputs(1, 17, 1) }, { ...input, interpolationDelay: 'x' }]) {
      expect(await dispatch('game.input', bad)).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    }
    expect(await dispatch('game.get', { x: 1 })).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    expect(await dispatch('game.finishRound', {})).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    expect(await dispatch('game.finishRound')).toEqual({
      ok: false,
      error: { code: 'failed-precondition', message: 'You are not in a room.' },
    });
    expect(backend.gateway.eventNames).toEqual(
      expect.arrayContaining(['game.roster', 'game.snapshot', 'game.results', 'game.ended']),
    );
  });
});
