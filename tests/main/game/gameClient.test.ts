import { describe, expect, it, vi } from 'vitest';
import { GameClient } from '../../../main/game/gameClient';
import { LocalGameClient } from '../../../main/game/localGameClient';
import { RosterAssembler } from '../../../main/game/host/rosterAssembler';
import { GameMessage, rosterParts, type GameResults, type GameRoster } from '../../../shared/game/gameProtocol';
import type { GameSnapshot } from '../../../shared/games/tag/wire/snapshot';
import { tagGame } from '../../../shared/games/tag/tagGame';
import type { PlayerInput } from '../../../shared/games/tag/types';
import { Channel } from '../../../shared/net/channel';
import { FakeGuestTransport } from './fakeTransports';
import { startHost } from './hostKit';

const inputs = (from: number, to: number): PlayerInput[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ sequence: from + i, moveX: 1, moveY: -0.5, tag: i === 0 }));

const snapshot = (g: number, k: number) => ({
  g,
  k,
  t: k / 60,
  ph: 'playing',
  r: 80,
  p: [['1', 10, 20, 0, 0, 0, 1, 0, 3]],
});

function client(redundancy?: number) {
  const transport = new FakeGuestTransport();
  const game = new GameClient({ game: tagGame, transport, playerId: '1', redundancy });
  const seen = { snapshots: [] as GameSnapshot[], rosters: [] as GameRoster[], results: [] as GameResults[] };
  game.onSnapshot((s) => seen.snapshots.push(s));
  game.onRoster((r) => seen.rosters.push(r));
  game.onResults((r) => seen.results.push(r));
  return { transport, game, seen };
}

const roster = (g: number, n: number) =>
  rosterParts(
    g,
    Array.from({ length: n }, (_, i) => ({ id: String(i), name: `P${i}`, colour: '#123456' })),
  );

describe('GameClient', () => {
  it('sends nothing before it knows the game, then each input with the previous ones for redundancy', () => {
    const { transport, game } = client();
    game.sendInputs(inputs(1, 1), 0.1);
    expect(transport.sent).toEqual([]);
    expect(game.stats().inputsUnsent).toBe(1);
    for (const part of roster(5, 2)) transport.deliver(GameMessage.ROSTER, part);
    expect(game.gameId).toBe(5);
    for (let s = 1; s <= 7; s += 1) game.sendInputs(inputs(s, s), 0.1);
    const sent = transport.sent;
    expect(sent.every((m) => m.channel === Channel.UNRELIABLE && m.type === GameMessage.INPUT)).toBe(true);
    expect(sent.map((m) => (m.payload.i as number[][]).map((i) => i[0]))).toEqual([
      [1],
      [1, 2],
      [1, 2, 3],
      [1, 2, 3, 4],
      [1, 2, 3, 4, 5],
      [2, 3, 4, 5, 6],
      [3, 4, 5, 6, 7],
    ]);
    expect(sent[0]?.payload).toEqual({ g: 5, d: 0.1, i: [[1, 1, -0.5, 1]] });
    expect(game.stats()).toMatchObject({ inputsSent: 7, messagesSent: 7 });
  });

  it('sends a catch-up burst whole (up to 16), then returns to the redundancy window', () => {
    const { transport, game } = client(3);
    transport.deliver(GameMessage.SNAPSHOT, snapshot(5, 1)); // the game id can come from a snapshot too
    game.sendInputs(inputs(1, 10), 0.05);
    game.sendInputs(inputs(11, 11), 0.05);
    game.sendInputs(inputs(12, 40), 0.05);
    const windows = transport.sent.map((m) => (m.payload.i as number[][]).map((i) => i[0]));
    expect(windows[0]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(windows[1]).toEqual([9, 10, 11]);
    expect(windows[2]).toHaveLength(16);
    expect(windows[2]?.at(-1)).toBe(40);
    expect(() => new GameClient({ game: tagGame, transport, playerId: '1', redundancy: 17 })).toThrow(RangeError);
  });

  it('counts inputs it could not send while disconnected', () => {
    const { transport, game } = client();
    transport.deliver(GameMessage.SNAPSHOT, snapshot(5, 1));
    transport.connected = false;
    game.sendInputs(inputs(1, 2), 0.1);
    expect(game.stats()).toMatchObject({ inputsUnsent: 2, messagesSent: 0 });
  });

  it('validates snapshots and results, and keeps to one game session', () => {
    const { transport, game, seen } = client();
    transport.deliver(GameMessage.SNAPSHOT, { ...snapshot(5, 1), p: 'nope' });
    transport.deliver(GameMessage.SNAPSHOT, { ...snapshot(5, 1), g: undefined });
    expect(game.gameId).toBeUndefined();
    transport.deliver(GameMessage.SNAPSHOT, snapshot(5, 2));
    transport.deliver(GameMessage.SNAPSHOT, snapshot(6, 3)); // another session's straggler
    expect(seen.snapshots.map((s) => s.k)).toEqual([2]);
    transport.deliver(GameMessage.RESULTS, { g: 6, why: 'finished', w: ['1'], s: [['1', 3, 0]] });
    transport.deliver(GameMessage.RESULTS, { g: 5, why: 'won', w: ['1'], s: [] });
    transport.deliver(GameMessage.RESULTS, { g: 5, why: 'finished', w: ['1'], s: [['1', 3.5, 2]] });
    transport.deliver(GameMessage.RESULTS, { g: 5, why: 'finished', w: [], s: [], hold: -1 });
    transport.deliver(GameMessage.RESULTS, { g: 5, why: 'finished', w: [], s: [], hold: 601 });
    transport.deliver(GameMessage.RESULTS, { g: 5, why: 'finished', w: [], s: [], hold: 7.5 });
    expect(seen.results).toEqual([
      { game: 5, reason: 'finished', winners: ['1'], scores: [{ id: '1', score: 3.5, stat: 2 }] },
      { game: 5, reason: 'finished', winners: [], scores: [], holdSeconds: 7.5 },
    ]);
    expect(game.stats().messagesDropped).toBe(7);
    // A new roster starts a new session.
    for (const part of roster(6, 1)) transport.deliver(GameMessage.ROSTER, part);
    transport.deliver(GameMessage.SNAPSHOT, snapshot(6, 1));
    expect(seen.snapshots.map((s) => s.k)).toEqual([2, 1]);
  });

  it('assembles a roster from its parts and replays the latest one to late subscribers', () => {
    const { transport, game, seen } = client();
    const parts = roster(5, 9);
    expect(parts).toHaveLength(3);
    transport.deliver(GameMessage.ROSTER, parts[1]); // mid-roster: ignored until a part 0
    transport.deliver(GameMessage.ROSTER, { ...parts[0], part: 3 }); // part >= parts: malformed
    for (const part of parts) transport.deliver(GameMessage.ROSTER, part);
    expect(seen.rosters).toHaveLength(1);
    expect(seen.rosters[0]?.players.map((p) => p.name)).toEqual(['P0', 'P1', 'P2', 'P3', 'P4', 'P5', 'P6', 'P7', 'P8']);
    const late = vi.fn();
    game.onRoster(late);
    expect(late).toHaveBeenCalledWith(seen.rosters[0]);
  });

  it('reports a lost connection and stops listening on close', () => {
    const { transport, game } = client();
    const closed = vi.fn();
    game.onClosed(closed);
    transport.drop('timed out');
    expect(closed).toHaveBeenCalledWith('disconnected: timed out');
    game.close();
    expect(transport.listenerCount).toBe(0);
  });
});

describe('RosterAssembler', () => {
  it('drops a partial roster when a part is missing', () => {
    const assembler = new RosterAssembler();
    const parts = roster(5, 9);
    expect(assembler.add(parts[0]!)).toBeUndefined();
    expect(assembler.add(parts[2]!)).toBeUndefined(); // part 1 missing
    expect(assembler.add(parts[1]!)).toBeUndefined();
    const again = parts.map((p) => assembler.add(p));
    expect(again.at(-1)?.players).toHaveLength(9);
  });
});

describe('LocalGameClient', () => {
  it('is the host player’s GameLink: roster at once, snapshots, inputs into the host, results', () => {
    const kit = startHost({ roundDuration: 0.2 });
    const local = new LocalGameClient(kit.host);
    expect(local.playerId).toBe('0');
    const rosters: GameRoster[] = [];
    const snapshots: GameSnapshot[] = [];
    const results: GameResults[] = [];
    local.onRoster((r) => rosters.push(r));
    local.onSnapshot((s) => snapshots.push(s));
    local.onResults((r) => results.push(r));
    expect(rosters.map((r) => r.players.length)).toEqual([3]);
    local.sendInputs(inputs(1, 3), 0.03);
    kit.ticks(4);
    expect(snapshots.map((s) => s.k)).toEqual([1, 2, 3, 4]); // every tick: no guest link holds the room back
    expect(snapshots.at(-1)?.p.find((p) => p[0] === '0')?.[8]).toBe(3);
    kit.ticks(20);
    expect(results).toHaveLength(1);
    expect(results[0]).toEqual(kit.ended[0]);
  });

  it('reports a stopped host and stops forwarding after close', () => {
    const kit = startHost();
    const local = new LocalGameClient(kit.host);
    const closed = vi.fn();
    local.onClosed(closed);
    const snapshots: GameSnapshot[] = [];
    local.onSnapshot((s) => snapshots.push(s));
    local.close();
    local.sendInputs(inputs(1, 1), 0.03);
    kit.ticks(4);
    expect(snapshots).toEqual([]);
    expect(kit.host.stats().inputs.messages).toBe(0);
    const other = new LocalGameClient(kit.host);
    other.onClosed(closed);
    kit.host.stop('room closed');
    expect(closed).toHaveBeenCalledWith('room closed');
  });
});
