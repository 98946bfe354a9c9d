import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GameClient } from '../../../../main/game/gameClient';
import { GameHost } from '../../../../main/game/host/gameHost';
import { LocalGameClient } from '../../../../main/game/localGameClient';
import { GAME_TICK_DT, GameMessage, type GameResults } from '../../../../shared/game/gameProtocol';
import { createGameRegistry } from '../../../../shared/games/gameRegistry';
import { tagGame } from '../../../../shared/games/tag/tagGame';
import { FakeGuestTransport, FakeHostTransport, manualTicker } from '../fakeTransports';
import { pressRace, PRESSES_TO_WIN, type RaceSnapshot } from './pressRace';

// The host loop, game protocol and links run a game that shares nothing with tag (registered here, in the test):
// host player '0' in process, guest '1' over an in-memory transport pair pumped by hand.
const games = createGameRegistry([tagGame, pressRace]);

function race() {
  const hostSide = new FakeHostTransport();
  const guestSide = new FakeGuestTransport();
  const ticker = manualTicker();
  const results: GameResults[] = [];
  const host = new GameHost({
    game: games.get('press-race') as typeof pressRace,
    transport: hostSide,
    players: [
      { id: 0, name: 'Hana', colour: '#ff5577' },
      { id: 1, name: 'Gus', colour: '#22cc88' },
    ],
    onRoundEnd: (r) => results.push(r),
    gameId: 12,
    seed: 1,
    scheduler: ticker.scheduler,
  });
  const guest = new GameClient({ game: pressRace, transport: guestSide, playerId: '1', redundancy: 2 });
  const guestSnapshots: RaceSnapshot[] = [];
  guest.onSnapshot((s) => guestSnapshots.push(s));
  const guestResults: GameResults[] = [];
  guest.onResults((r) => guestResults.push(r));
  host.start();
  const local = new LocalGameClient(host);
  let hostSent = 0;
  let guestSent = 0;
  /** Carries what each side sent to the other, as the network would (JSON, in order). */
  const pump = (): void => {
    for (const m of hostSide.sent.slice(hostSent)) guestSide.deliver(m.type, m.payload);
    hostSent = hostSide.sent.length;
    for (const m of guestSide.sent.slice(guestSent)) hostSide.deliver(1, m.type, m.payload);
    guestSent = guestSide.sent.length;
  };
  const tick = (): void => {
    ticker.advance(GAME_TICK_DT);
    pump();
  };
  pump();
  return { host, guest, local, hostSide, guestSide, guestSnapshots, guestResults, results, pump, tick };
}

describe('the game seam runs a game that is not tag', () => {
  it('registers next to tag under its own id, with its own limits', () => {
    expect(games.ids).toEqual(['tag', 'press-race']);
    expect(games.get('press-race')).toMatchObject({ name: 'Press Race', minPlayers: 2, maxPlayers: 4 });
    expect(() => createGameRegistry([pressRace, { ...pressRace, name: 'Again' }])).toThrow(/registered twice/);
  });

  it('plays a round with two players: inputs both ways, snapshots and results in the game’s own shapes', () => {
    const r = race();
    const hostView = pressRace.createView({ playerId: '0', interpolationDelay: 0.05 });
    const guestView = pressRace.createView({ playerId: '1', interpolationDelay: 0.1 });
    r.guest.onSnapshot((s) => guestView.applySnapshot(s, 0));
    expect(r.guest.gameId).toBe(12);
    expect(r.guestSnapshots[0]).toEqual({
      k: 0,
      c: [
        ['0', 0, -1],
        ['1', 0, -1],
      ],
    });

    // The guest presses every tick; the host presses every other tick.
    for (let t = 0; t < 20 && r.results.length === 0; t += 1) {
      r.guest.sendInputs(guestView.advance(t, { press: true }), guestView.interpolationDelay);
      r.local.sendInputs(hostView.advance(t, { press: t % 2 === 0 }), hostView.interpolationDelay);
      r.pump();
      r.tick();
    }
    expect(r.results).toHaveLength(1);
    const [results] = r.results;
    expect(results).toMatchObject({ game: 12, reason: 'finished', winners: ['1'] });
    expect(results?.scores).toEqual([
      { id: '0', score: 2, stat: 2 },
      { id: '1', score: PRESSES_TO_WIN, stat: PRESSES_TO_WIN },
    ]);
    expect(r.guestResults).toEqual(r.results);
    // The final snapshot reached the guest, acknowledging its inputs, and its view holds it.
    const last = r.guestSnapshots.at(-1);
    expect(last?.c.find(([id]) => id === '1')?.[1]).toBe(PRESSES_TO_WIN);
    expect(last?.c.find(([id]) => id === '1')?.[2]).toBe(PRESSES_TO_WIN);
    expect(guestView.sample(1).latest).toEqual(last);
    expect(r.host.stats().inputs).toMatchObject({ invalid: 0, wrongGame: 0, unknownPlayer: 0 });
    expect(r.host.running).toBe(false);
  });

  it('queues with the game’s hooks: a starved tick repeats without the press, a dropped press is carried', () => {
    const r = race();
    r.guest.sendInputs([{ sequence: 1, press: true }], 0.1);
    r.pump();
    r.tick(); // applies 1 (press)
    r.tick(); // starved: repeats 1 without its press, and owes a tick
    expect(r.host.state.players.find((p) => p.id === '1')?.presses).toBe(1);
    r.guest.sendInputs([{ sequence: 2, press: true }], 0.1);
    r.guest.sendInputs([{ sequence: 3, press: false }], 0.1);
    r.pump();
    r.tick(); // pays the debt: skips 2, whose press is carried into 3
    expect(r.host.state.players.find((p) => p.id === '1')?.presses).toBe(2);
    expect(r.host.stats().inputs).toMatchObject({ repeated: 1, skipped: 1 });
  });

  it('drops what is not the game’s: a tag input at the host, a tag snapshot at the guest', () => {
    const r = race();
    const tagSnapshot = { g: 12, k: 5, t: 0.1, ph: 'playing', r: 80, p: [['1', 10, 20, 0, 0, 0, 1, 0, 3]] };
    const before = r.guestSnapshots.length;
    r.guestSide.deliver(GameMessage.SNAPSHOT, tagSnapshot);
    expect(r.guestSnapshots).toHaveLength(before);
    expect(r.guest.stats().messagesDropped).toBe(1);
    // A tag-shaped input from guest 1 fails the race's wire schema; a race-shaped one passes.
    r.hostSide.deliver(1, GameMessage.INPUT, { g: 12, d: 0.1, i: [[1, 0.5, 0, 1]] });
    expect(r.host.stats().inputs).toMatchObject({ messages: 1, invalid: 1, accepted: 0 });
    r.hostSide.deliver(1, GameMessage.INPUT, { g: 12, d: 0.1, i: [[1, 1]] });
    expect(r.host.stats().inputs).toMatchObject({ messages: 2, invalid: 1, accepted: 1 });
  });

  it('drops an input whose sequence a lax wire schema let through, since the queue relies on it', () => {
    const lax = {
      ...pressRace,
      input: { ...pressRace.input, wireSchema: z.tuple([z.number(), z.union([z.literal(0), z.literal(1)])]) },
    };
    const transport = new FakeHostTransport();
    const players = [0, 1].map((id) => ({ id, name: `P${id}`, colour: '#123456' }));
    const scheduler = manualTicker().scheduler;
    const host = new GameHost({ game: lax, transport, players, onRoundEnd: () => undefined, gameId: 3, scheduler });
    host.start();
    for (const sequence of [0, -1, 1.5, 2 ** 24])
      transport.deliver(1, GameMessage.INPUT, { g: 3, d: 0, i: [[sequence, 1]] });
    transport.deliver(1, GameMessage.INPUT, { g: 3, d: 0, i: [[1, 1]] });
    expect(host.stats().inputs).toMatchObject({ messages: 5, invalid: 4, accepted: 1 });
    host.stop();
  });

  it('refuses a roster the game cannot take, in the game’s own terms', () => {
    const base = { transport: new FakeHostTransport(), onRoundEnd: () => undefined, game: pressRace };
    const five = Array.from({ length: 5 }, (_, id) => ({ id, name: `P${id}`, colour: '#123456' }));
    expect(() => new GameHost({ ...base, players: five })).toThrow('a game of Press Race takes 2–4 players, got 5');
    expect(() => new GameHost({ ...base, players: five.slice(0, 1) })).toThrow('takes 2–4 players, got 1');
    expect(() => new GameHost({ ...base, players: five.slice(0, 2), roundDuration: 0 })).toThrow(RangeError);
  });
});
