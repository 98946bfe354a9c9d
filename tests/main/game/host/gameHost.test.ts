import { describe, expect, it, vi } from 'vitest';
import { GameHost } from '../../../../main/game/host/gameHost';
import { GAME_TICK_DT, GameMessage } from '../../../../shared/game/gameProtocol';
import { Channel } from '../../../../shared/net/channel';
import { FakeHostTransport, manualTicker } from '../fakeTransports';
import { OPEN_TAG, placing, startHost, THREE_PLAYERS } from '../hostKit';

describe('GameHost lifecycle', () => {
  it('sends the roster reliably and a first snapshot on start, then ticks at 60 Hz with a snapshot every 2nd tick', () => {
    const kit = startHost({ snapshotEvery: 2 });
    const roster = kit.transport.ofType(GameMessage.ROSTER);
    expect(roster).toHaveLength(1);
    expect(roster[0]).toMatchObject({ channel: Channel.RELIABLE_ORDERED, payload: { g: 7, part: 0, parts: 1 } });
    expect(roster[0]?.payload.p).toEqual([
      ['0', 'Hana', '#ff5577'],
      ['1', 'Gus', '#22cc88'],
      ['2', 'Ida', '#3366ff'],
    ]);
    expect(kit.snapshots()).toHaveLength(1);
    expect(kit.transport.ofType(GameMessage.SNAPSHOT)[0]?.channel).toBe(Channel.UNRELIABLE_SEQUENCED);

    kit.ticks(10);
    expect(kit.host.stats().ticks).toBe(10);
    const snapshots = kit.snapshots();
    expect(snapshots.map((s) => s.k)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(snapshots.every((s) => s.g === 7 && s.ph === 'playing')).toBe(true);
    expect(snapshots[5]?.t).toBeCloseTo(10 * GAME_TICK_DT, 3);
    // Every player is acknowledged as "nothing processed yet" (-1) until inputs come.
    expect(snapshots[5]?.p.map((p) => p[8])).toEqual([-1, -1, -1]);
  });

  it('chooses the room snapshot rate from the guests links: 60/s on a LAN, 30/s on an internet path, back up later', () => {
    const kit = startHost();
    kit.transport.links.set(1, { rtt: 0.002, loss: 0 });
    kit.transport.links.set(2, { rtt: 0.001, loss: 0 });
    kit.ticks(6);
    expect(kit.snapshots().map((s) => s.k)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(kit.host.snapshotsPerSecond).toBe(60);
    // Ida's path turns into an internet one: from the next evaluation (each second) on, every 2nd tick.
    kit.transport.links.set(2, { rtt: 0.08, loss: 0 });
    kit.ticks(54 + 6);
    expect(kit.host.stats().snapshotsPerSecond).toBe(30);
    expect(
      kit
        .snapshots()
        .map((s) => s.k)
        .slice(-4),
    ).toEqual([60, 62, 64, 66]);
    // Back on a good path: the rate goes up only once three evaluations in a row allowed it.
    kit.transport.links.set(2, { rtt: 0.002, loss: 0 });
    kit.ticks(54 + 60);
    expect(kit.host.snapshotsPerSecond).toBe(30);
    kit.ticks(120);
    expect(kit.host.snapshotsPerSecond).toBe(60);
  });

  it('starts at the rate the links allow and keeps a fixed rate when told', () => {
    const transport = new FakeHostTransport();
    transport.links.set(1, { rtt: 0.002, loss: 0.2 });
    const ticker = manualTicker();
    const base = { game: OPEN_TAG, transport, players: THREE_PLAYERS, onRoundEnd: () => undefined };
    expect(new GameHost({ ...base, scheduler: ticker.scheduler }).snapshotsPerSecond).toBe(20);
    const fixed = new GameHost({ ...base, scheduler: ticker.scheduler, snapshotEvery: 2 });
    transport.links.set(1, { rtt: 0.002, loss: 0 });
    fixed.start();
    for (let i = 0; i < 240; i += 1) ticker.advance(GAME_TICK_DT);
    expect(fixed.snapshotsPerSecond).toBe(30);
    fixed.stop();
  });

  it('runs due ticks from the clock, and drops (counts) a stall longer than the catch-up limit', () => {
    const kit = startHost();
    kit.ticker.advance(GAME_TICK_DT / 2);
    expect(kit.host.stats().ticks).toBe(0);
    kit.ticker.advance(GAME_TICK_DT / 2);
    expect(kit.host.stats().ticks).toBe(1);
    kit.ticker.advance(1); // a one-second stall: 15 ticks run, the rest is dropped rather than replayed
    expect(kit.host.stats()).toMatchObject({ ticks: 16, droppedTicks: 45 });
  });

  it('refuses a game it cannot run', () => {
    const base = {
      game: OPEN_TAG,
      transport: new FakeHostTransport(),
      onRoundEnd: () => undefined,
      players: THREE_PLAYERS,
    };
    expect(() => new GameHost({ ...base, players: THREE_PLAYERS.slice(0, 1) })).toThrow(
      'Tag takes 2–16 players, got 1',
    );
    expect(() => new GameHost({ ...base, roundDuration: 0 })).toThrow(RangeError);
    expect(() => new GameHost({ ...base, roundDuration: 601 })).toThrow(RangeError);
    expect(() => new GameHost({ ...base, gameId: 0 })).toThrow(RangeError);
    expect(() => new GameHost({ ...base, snapshotEvery: 0 })).toThrow(RangeError);
    expect(() => new GameHost({ ...base, snapshotEvery: 1.5 })).toThrow(RangeError);
    const host = new GameHost({ ...base, scheduler: manualTicker().scheduler });
    host.start();
    expect(() => host.start()).toThrow(/running/);
  });
});

describe('GameHost players leaving and the round ending', () => {
  it('removes a disconnected player and sends the new roster', () => {
    const kit = startHost();
    kit.transport.disconnect(2);
    expect(kit.host.state.players.map((p) => p.id)).toEqual(['0', '1']);
    const rosters = kit.transport.ofType(GameMessage.ROSTER);
    expect(rosters).toHaveLength(2);
    expect(rosters[1]?.payload.p).toHaveLength(2);
    kit.transport.disconnect(2); // twice, or an unknown peer: nothing happens
    kit.transport.disconnect(42);
    expect(kit.transport.ofType(GameMessage.ROSTER)).toHaveLength(2);
    kit.ticks(2);
    expect(
      kit
        .snapshots()
        .at(-1)
        ?.p.map((p) => p[0]),
    ).toEqual(['0', '1']);
  });

  it('abandons the round when fewer than two players are left', () => {
    const kit = startHost();
    kit.transport.disconnect(1);
    kit.transport.disconnect(2);
    expect(kit.ended).toEqual([
      { game: 7, reason: 'abandoned', winners: [], scores: [{ id: '0', score: 0, stat: 0 }] },
    ]);
    expect(kit.host.running).toBe(false);
    expect(kit.ticker.armed).toBe(false);
  });

  it('ends the round on time: final snapshot, results reliably, onRoundEnd once, then stops listening', () => {
    const kit = startHost({
      roundDuration: 0.25,
      prepare: placing({ '1': { it: true }, '0': { it: false }, '2': { it: false } }),
    });
    kit.ticks(20);
    expect(kit.ended).toHaveLength(1);
    const results = kit.ended[0];
    expect(results?.reason).toBe('finished');
    expect(results?.winners).toEqual(['0', '2']);
    expect(results?.scores).toEqual([
      { id: '0', score: 0.3, stat: 0 },
      { id: '1', score: 0, stat: 0 },
      { id: '2', score: 0.3, stat: 0 },
    ]);
    const sent = kit.transport.sent.map((m) => m.type);
    expect(sent.at(-1)).toBe(GameMessage.RESULTS);
    expect(kit.transport.ofType(GameMessage.RESULTS)[0]).toMatchObject({
      channel: Channel.RELIABLE_ORDERED,
      payload: { g: 7, why: 'finished', w: ['0', '2'] },
    });
    expect(kit.snapshots().at(-1)?.ph).toBe('ended');
    const ticksAtEnd = kit.host.stats().ticks;
    expect(ticksAtEnd).toBeGreaterThanOrEqual(15); // 0.25 s at 60 Hz (float rounding may need one more)
    expect(ticksAtEnd).toBeLessThanOrEqual(16);
    expect(kit.transport.listenerCount).toBe(0);
    expect(kit.ticker.armed).toBe(false);
    kit.host.tick();
    kit.transport.deliver(1, GameMessage.INPUT, { g: 7, d: 0, i: [[1, 1, 0, 0]] });
    expect(kit.host.stats().ticks).toBe(ticksAtEnd);
    expect(kit.host.stats().inputs.messages).toBe(0);
  });

  it('reports a throwing callback instead of throwing from the tick', () => {
    const onCallbackError = vi.fn();
    const kit = startHost({
      roundDuration: 0.05,
      onRoundEnd: () => {
        throw new Error('wiring broke');
      },
      onEvents: () => {
        throw new Error('listener broke');
      },
      onCallbackError,
    });
    expect(() => kit.ticks(5)).not.toThrow();
    expect(onCallbackError).toHaveBeenCalledTimes(2);
  });

  it('stop() ends without results and tells in-process players', () => {
    const kit = startHost();
    const stopped = vi.fn();
    kit.host.attachLocal({ snapshot: () => undefined, roster: () => undefined, results: () => undefined, stopped });
    kit.host.stop('room closed');
    expect(stopped).toHaveBeenCalledWith('room closed');
    expect(kit.ended).toEqual([]);
    expect(kit.transport.listenerCount).toBe(0);
  });
});
