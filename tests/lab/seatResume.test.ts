import { afterEach, describe, expect, it } from 'vitest';
import { GameHost } from '../../main/game/host/gameHost';
import { LinkConditioner } from '../../main/conditioner/linkConditioner';
import type { LobbyEnd, LobbyGuest } from '../../main/lobby/lobbyGuest';
import { GAMES } from '../../shared/games/registry';
import { loopbackGuest, loopbackHost, type Cleanups } from '../support/loopbackRoom';
import { waitFor } from '../support/waitFor';

// A LAN guest's link cut for a while (the link conditioner on loopback dropping every datagram both ways), with
// the transport's real 5 s timeout. Each cut lasts until both ends have noticed it (the host holds the seat, the
// guest is reconnecting), not a fixed time. The seat grace is the room's option: GRACE_SEC here, so "removed when
// the grace is over" takes seconds, not the default 30 (the default itself: tests/main/lobby/hostSeatGrace.test.ts;
// removal at the production grace on a manual clock: tests/main/seats/lobbyResume.test.ts). Times are printed; the
// outcomes are exact.
const GRACE_SEC = 6;

const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A room on loopback; each guest joins through a conditioner of its own, so its link alone can be cut. */
async function roomThroughRelay() {
  const host = await loopbackHost(cleanups, { seatGraceSec: GRACE_SEC });
  const relays = new Map<string, LinkConditioner>();
  const join = async (name: string) => {
    const relay = await LinkConditioner.start({ target: { host: '127.0.0.1', port: host.port } });
    cleanups.push(() => relay.close());
    relays.set(name, relay);
    return loopbackGuest(cleanups, relay.address.port, name, { timeout: 5 });
  };
  const cut = (name: string, down: boolean) => relays.get(name)!.setProfile('both', { loss: down ? 1 : 0 });
  return { host, cut, join };
}

const seatOf = (guest: LobbyGuest, host: Awaited<ReturnType<typeof roomThroughRelay>>['host']) =>
  host.state.players.find((p) => p.id === guest.you);

/** Both ends have noticed the cut: the host holds the guest's seat, the guest is trying to come back. */
const bothNoticed = (guest: LobbyGuest, host: Awaited<ReturnType<typeof roomThroughRelay>>['host']) => () =>
  seatOf(guest, host)?.awayUntil !== undefined && guest.reconnecting;

describe('lab: a LAN guest whose link is cut', () => {
  it('cut in the lobby, then mid-round, until both ends notice: back in the same seat with its score, without a click', async () => {
    const { host, cut, join } = await roomThroughRelay();
    const gus = await join('Gus');
    const ida = await join('Ida');
    gus.setReady(true);
    await waitFor(() => seatOf(gus, host)?.ready === true, 5000, 'Gus ready');
    const before = seatOf(gus, host)!;

    // In the lobby.
    const cutAt = performance.now();
    cut('Gus', true);
    await waitFor(() => seatOf(gus, host)?.awayUntil !== undefined, 15_000, 'the host holding the seat');
    const heldAfter = performance.now() - cutAt;
    await waitFor(bothNoticed(gus, host), 15_000, 'Gus reconnecting');
    cut('Gus', false);
    const restoredAt = performance.now();
    await waitFor(() => !gus.reconnecting && seatOf(gus, host)?.awayUntil === undefined, 15_000, 'Gus back');
    const back = performance.now();
    console.log(
      `[lab seats] lobby: cut ${Math.round(restoredAt - cutAt)} ms; held after ${Math.round(heldAfter)} ms; back ${Math.round(back - restoredAt)} ms ` +
        `after the link returned (${Math.round(back - cutAt)} ms in all)`,
    );
    expect(seatOf(gus, host)).toMatchObject({ id: before.id, name: 'Gus', colour: before.colour, ready: true });
    expect(gus.endReason).toBeUndefined();

    // Mid-round.
    ida.setReady(true);
    await waitFor(() => host.state.players.filter((p) => p.ready).length === 2, 5000, 'both ready');
    host.startGame();
    const game = new GameHost({
      game: GAMES.get(host.state.gameId),
      transport: host.gameTransport,
      players: host.state.players,
      onRoundEnd: () => undefined,
      roundDuration: 120,
    });
    cleanups.push(() => game.stop());
    game.start();
    const id = String(gus.you);
    const scoreOf = () => (game.state as { players: { id: string; score: number }[] }).players.find((p) => p.id === id);
    // Past the round's countdown: someone scores (Gus may be IT, drawn at random, and then keeps 0 while nobody moves).
    const scores = () => (game.state as { players: { score: number }[] }).players.map((p) => p.score);
    await waitFor(() => Math.max(...scores()) > 0.5, 10_000, 'a score');
    const scoreBefore = scoreOf()!.score;
    const roundCutAt = performance.now();
    cut('Gus', true);
    await waitFor(bothNoticed(gus, host), 15_000, 'Gus away mid-round');
    // Held the whole time: still in the round, its score kept.
    expect(scoreOf()).toBeDefined();
    expect(scoreOf()!.score).toBeGreaterThanOrEqual(scoreBefore);
    cut('Gus', false);
    const roundRestoredAt = performance.now();
    await waitFor(() => !gus.reconnecting && seatOf(gus, host)?.awayUntil === undefined, 15_000, 'Gus back mid-round');
    console.log(
      `[lab seats] round: cut ${Math.round(roundRestoredAt - roundCutAt)} ms; back ${Math.round(performance.now() - roundRestoredAt)} ms after the link ` +
        `returned; score ${scoreBefore.toFixed(2)} → ${scoreOf()!.score.toFixed(2)}`,
    );
    expect(game.running).toBe(true);
    expect(scoreOf()!.score).toBeGreaterThanOrEqual(scoreBefore);
    expect(host.state.phase).toBe('playing');
    expect(host.state.players.map((p) => p.name).sort()).toEqual(['Gus', 'Hana', 'Ida']);
  }, 90_000);

  it(`cut past the grace: removed when the ${GRACE_SEC} s grace is over, and told why`, async () => {
    const { host, cut, join } = await roomThroughRelay();
    const gus = await join('Gus');
    const ended = new Promise<LobbyEnd>((resolve) => gus.onEnd(resolve));
    const cutAt = performance.now();
    cut('Gus', true);
    await waitFor(() => host.state.players.length === 1, (GRACE_SEC + 15) * 1000, 'the seat given up');
    const removedAfter = performance.now() - cutAt;
    const end = await ended;
    const toldAfter = performance.now() - cutAt;
    cut('Gus', false);
    console.log(
      `[lab seats] cut past the ${GRACE_SEC} s grace: removed after ${Math.round(removedAfter)} ms, the guest told after ` +
        `${Math.round(toldAfter)} ms: "${end.message}"`,
    );
    // The transport notices within its 5 s timeout, then the seat waits the grace.
    expect(removedAfter).toBeGreaterThan(GRACE_SEC * 1000);
    expect(end).toEqual({
      code: 'host-gone',
      message: `Lost contact with the host for ${GRACE_SEC} s: your seat was given up.`,
    });
    expect(host.state.players.map((p) => p.name)).toEqual(['Hana']);
  }, 90_000);
});
