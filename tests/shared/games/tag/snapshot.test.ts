import { describe, expect, it } from 'vitest';
import { createGame } from '../../../../shared/games/tag/createGame';
import { decodeSnapshotPlayers, parseSnapshot, toRoster, toSnapshot } from '../../../../shared/games/tag/wire/snapshot';
import { RULES } from '../../../../shared/games/tag/rules';
import { withPlayers } from './fixtures';

describe('toSnapshot', () => {
  const game = withPlayers(
    createGame({
      players: [
        { id: 'a', name: 'Ann' },
        { id: 'b', name: 'Bo' },
      ],
      seed: 4,
    }),
    {
      a: { x: 12.3456, y: 7.891, vx: -0.04, vy: 99.96, score: 3.14159, cooldown: 0.123456, it: true },
      b: { it: false },
    },
  );

  it('rounds numbers and packs players as tuples with their acknowledgement', () => {
    const snap = toSnapshot({ ...game, elapsed: 1.23456, timeRemaining: 88.7654 }, new Map([['a', 17]]));
    expect(snap).toMatchObject({ k: 0, t: 1.235, ph: 'playing', r: 88.8, c: RULES.roundCountdown });
    expect(snap.p[0]).toEqual(['a', 12.35, 7.89, 0, 100, 1, 3.1, 0.12, 17]);
    // An immune player's cooldown slot carries its immunity, flagged; the countdown is sent only while it runs.
    const immune = withPlayers({ ...game, countdown: 0 }, { b: { immunity: 2.345, cooldown: 0 } });
    const later = toSnapshot(immune, {});
    expect(later.p[1]).toEqual(['b', expect.any(Number), expect.any(Number), 0, 0, 4, 0, 2.35, -1]);
    expect('c' in later).toBe(false);
    expect(decodeSnapshotPlayers(later)[1]).toMatchObject({ it: false, immunity: 2.35, cooldown: 0 });
    expect(decodeSnapshotPlayers(later)[0]).toMatchObject({ it: true, immunity: 0, cooldown: 0.12 });
    expect(Object.is(snap.p[0]?.[3], -0)).toBe(false);
    expect(snap.p[1]?.[8]).toBe(-1);
  });

  it('takes acknowledgements from a record too, and ignores invalid ones', () => {
    const snap = toSnapshot(game, { a: 2 ** 32 - 1, b: -3 });
    expect(snap.p.map((p) => p[8])).toEqual([2 ** 32 - 1, -1]);
    expect(toSnapshot(game, { a: 1.5 }).p[0]?.[8]).toBe(-1);
  });

  it('round-trips through JSON, parseSnapshot and decodeSnapshotPlayers', () => {
    const snap = toSnapshot(game, { a: 5 });
    const parsed = parseSnapshot(JSON.parse(JSON.stringify(snap)));
    expect(parsed).toEqual(snap);
    const [a, b] = decodeSnapshotPlayers(parsed!);
    expect(a).toEqual({
      id: 'a',
      x: 12.35,
      y: 7.89,
      vx: 0,
      vy: 100,
      it: true,
      score: 3.1,
      cooldown: 0.12,
      immunity: 0,
      lastProcessedSequence: 5,
      winner: false,
    });
    expect(b?.lastProcessedSequence).toBeUndefined();
    expect(b?.it).toBe(false);
  });

  it('rejects malformed snapshots', () => {
    const good = JSON.parse(JSON.stringify(toSnapshot(game, {}))) as Record<string, unknown>;
    expect(parseSnapshot(null)).toBeUndefined();
    expect(parseSnapshot({ ...good, ph: 'paused' })).toBeUndefined();
    expect(parseSnapshot({ ...good, p: [['a', 1, 2, 3]] })).toBeUndefined();
    expect(parseSnapshot({ ...good, p: [['a', 1, 2, 3, 4, 8, 0, 0, -1]] })).toBeUndefined();
    expect(parseSnapshot({ ...good, p: [['a', 1, 2, 3, 4, 1, 0, 0, 2 ** 32]] })).toBeUndefined();
    expect(parseSnapshot({ ...good, p: [['a', 'x', 2, 3, 4, 1, 0, 0, -1]] })).toBeUndefined();
    expect(parseSnapshot({ ...good, k: -1 })).toBeUndefined();
    expect(parseSnapshot({ ...good, c: -1 })).toBeUndefined();
    // The countdown is sent only while it runs: a snapshot without it parses.
    const { c: _c, ...moving } = good;
    expect(parseSnapshot(moving)).toEqual(moving);
  });

  it('fits sixteen worst-case players in one 1200-byte gale.net message body', () => {
    const ids = Array.from({ length: RULES.maxPlayers }, (_, i) => `player${String(i).padStart(2, '0')}`.slice(-8));
    let state = createGame({ players: ids.map((id) => ({ id, name: 'N'.repeat(16) })), seed: 1 });
    state = {
      ...state,
      tick: 9_999_999,
      elapsed: 99_999.999,
      timeRemaining: 89.99,
      winnerIds: ids,
      players: state.players.map((p) => ({
        ...p,
        x: 1579.99,
        y: -879.99,
        vx: -351.99,
        vy: -351.99,
        score: 89.99,
        cooldown: 1.49,
        // Immunity lasts twice the cooldown before the next tag, so at most two players have it at once.
        immunity: 2.99,
      })),
    };
    const acks = Object.fromEntries(ids.map((id) => [id, 2 ** 32 - 1]));
    const body = JSON.stringify({ type: 'snapshot', payload: toSnapshot(state, acks) });
    expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(1200);
  });
});

describe('winner flags', () => {
  it('marks the winners of an ended round', () => {
    const game = createGame({
      players: [
        { id: 'a', name: 'A' },
        { id: 'b', name: 'B' },
        { id: 'c', name: 'C' },
      ],
      seed: 1,
    });
    const ended = { ...game, phase: 'ended' as const, winnerIds: ['a', 'c'] };
    const decoded = decodeSnapshotPlayers(toSnapshot(ended, {}));
    expect(decoded.filter((p) => p.winner).map((p) => p.id)).toEqual(['a', 'c']);
    expect(decoded.map((p) => p.it)).toEqual(game.players.map((p) => p.it));
  });
});

describe('toRoster', () => {
  it('lists names and colours in join order', () => {
    const game = createGame({
      players: [
        { id: 'a', name: 'Ann', colour: '#123456' },
        { id: 'b', name: 'Bo' },
      ],
      seed: 1,
    });
    expect(toRoster(game)).toEqual([
      { id: 'a', name: 'Ann', colour: '#123456' },
      { id: 'b', name: 'Bo', colour: game.players[1]?.colour },
    ]);
  });
});
