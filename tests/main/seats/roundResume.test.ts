import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryNetwork } from '../../../main/net/index';
import { GameClient } from '../../../main/game/gameClient';
import { GameHost } from '../../../main/game/host/gameHost';
import { LobbyGuest } from '../../../main/lobby/lobbyGuest';
import { ClientView } from '../../../shared/games/tag/client/clientView';
import type { GameSnapshot } from '../../../shared/games/tag/wire/snapshot';
import { loopbackHost, type Cleanups } from '../../support/loopbackRoom';
import { waitFor } from '../../support/waitFor';
import { OPEN_ARENA, OPEN_TAG, placing } from '../game/hostKit';

const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const HOST = '10.9.1.1';
const RUNNER = '10.9.1.21';
const FAST = { timeout: 1, heartbeatInterval: 0.2 };

describe('a guest whose link drops mid-round', () => {
  it('keeps its place and score in the round, comes back by itself and plays on from the host’s state', async () => {
    const network = createMemoryNetwork();
    let cutAddress: string | undefined;
    network.drop = (_d, from, to) =>
      cutAddress !== undefined && (from.address === cutAddress || to.address === cutAddress);
    const host = await loopbackHost(cleanups, {
      bindAddress: HOST,
      advertiseAddress: HOST,
      seatGraceSec: 10,
      transport: { openSocket: network.openSocket, ...FAST },
    });
    // Each guest's sockets (the runner's later ones too) on an address of its own, so one link can be cut.
    const join = async (name: string, address: string) => {
      const guest = await LobbyGuest.join({
        host: HOST,
        port: host.port,
        playerName: name,
        colour: '#3ddc97',
        timeout: 2,
        transport: { openSocket: (o) => network.openSocket({ ...o, host: address }), ...FAST },
      });
      cleanups.push(() => guest.leave());
      return guest;
    };
    const runner = await join('Runner', RUNNER);
    const other = await join('Other', '10.9.1.22');
    runner.setReady(true);
    other.setReady(true);
    await waitFor(() => host.state.players.filter((p) => p.ready).length === 2, 3000, 'ready');
    host.startGame();
    const id = String(runner.you);
    const game = new GameHost({
      game: OPEN_TAG,
      transport: host.gameTransport,
      players: host.state.players,
      onRoundEnd: () => undefined,
      roundDuration: 60,
      prepare: placing({ [id]: { x: 300, y: 450, it: false }, [String(other.you)]: { x: 1400, y: 100, it: true } }),
    });
    cleanups.push(() => game.stop());
    game.start();
    const link = new GameClient({ game: OPEN_TAG, transport: runner.transport, playerId: id });
    const view = new ClientView({ playerId: id, arena: OPEN_ARENA, interpolationDelay: 0.1 });
    const now = () => performance.now() / 1000;
    link.onSnapshot((s: GameSnapshot) => view.applySnapshot(s, now()));
    cleanups.push(() => link.close());
    const me = () => game.state.players.find((p) => p.id === id);
    const timer = setInterval(() => link.sendInputs(view.advance(now(), { moveX: 1, moveY: 0, tag: false }), 0.1), 16);
    cleanups.push(() => clearInterval(timer));
    await waitFor(() => (me()?.x ?? 0) > 360, 5000, 'the runner running');

    // The runner's link goes down (its own address only; the other guest plays on).
    const xAtCut = me()!.x;
    const firstConnection = runner.transport.current;
    cutAddress = RUNNER;
    await waitFor(() => host.state.players.some((p) => p.id === runner.you && p.awayUntil !== undefined), 5000, 'held');
    const scoreHeld = me()!.score;
    const xHeld = me()!.x;
    await new Promise((r) => setTimeout(r, 800));
    // Held: still in the round, standing where it stopped (no input repeated), its score kept.
    expect(me()).toBeDefined();
    expect(Math.abs(me()!.x - xHeld)).toBeLessThan(40);
    expect(me()!.score).toBeGreaterThanOrEqual(scoreHeld);
    expect(xHeld).toBeGreaterThan(xAtCut - 1);
    cutAddress = undefined;
    await waitFor(() => !runner.reconnecting, 8000, 'the runner back');
    // On a new connection: the game's link moved over without the game noticing.
    expect(runner.transport.current).not.toBe(firstConnection);
    const xBack = me()!.x;
    await waitFor(() => (me()?.x ?? 0) > xBack + 60, 5000, 'the runner running again');
    // Its prediction follows the host again: what it shows of itself is near where the host has it.
    await waitFor(
      () => {
        const shown = view.sample(now()).players.find((p) => p.id === id);
        const truth = me();
        return shown !== undefined && truth !== undefined && Math.abs(shown.x - truth.x) < 80;
      },
      3000,
      'the prediction near the host',
    );
    expect(game.state.players.map((p) => p.id).sort()).toEqual(['0', id, String(other.you)].sort());
    expect(me()!.score).toBeGreaterThanOrEqual(scoreHeld);
  }, 30_000);
});
