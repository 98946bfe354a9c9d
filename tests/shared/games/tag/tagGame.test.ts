import { describe, expect, it } from 'vitest';
import { MAX_INPUT_SEQUENCE } from '../../../../shared/game/gameProtocol';
import { createTagGame, tagGame } from '../../../../shared/games/tag/tagGame';
import { tagInputCodec } from '../../../../shared/games/tag/wire/tagInput';
import type { GameState } from '../../../../shared/games/tag/types';
import { OPEN_ARENA, withPlayers } from './fixtures';

const players = [
  { id: '0', name: 'Hana', colour: '#ff5577' },
  { id: '1', name: 'Gus', colour: '#22cc88' },
];

describe('tag as a game definition', () => {
  it('creates a running round from the roster, seed and duration, on its own arena', () => {
    const game = createTagGame({ arena: OPEN_ARENA });
    const state = game.create({ players, seed: 3, roundDuration: 30 });
    expect(game.phase(state)).toBe('playing');
    expect(state).toMatchObject({ arena: OPEN_ARENA, roundDuration: 30, timeRemaining: 30 });
    expect(game.players(state).map((p) => [p.id, p.name, p.colour])).toEqual([
      ['0', 'Hana', '#ff5577'],
      ['1', 'Gus', '#22cc88'],
    ]);
    expect(game.create({ players, seed: 3, roundDuration: 30 })).toEqual(state);
    expect(() => game.create({ players, seed: 3, roundDuration: -1 })).toThrow(RangeError);
    expect(game.phase(game.create({ players: players.slice(0, 1), seed: 3, roundDuration: 30 }))).toBe('waiting');
  });

  it('steps with the rewound lookup for tags, and ends the round with standings of score and tags', () => {
    const created = { ...tagGame.create({ players, seed: 1, roundDuration: 0.05 }), countdown: 0 };
    const start: GameState = withPlayers(created, {
      '0': { x: 100, y: 100, it: true, cooldown: 0 },
      '1': { x: 600, y: 100, it: false },
    });
    const tag = new Map([['0', { sequence: 1, moveX: 0, moveY: 0, tag: true }]]);
    // The target is far away now, but where the shooter saw it (rewound) it was within reach.
    const rewound = (target: string) => (target === '1' ? { x: 120, y: 100 } : undefined);
    const hit = tagGame.step(start, tag, 1 / 60, { rewound });
    expect(hit.events).toEqual([{ type: 'tag', taggerId: '0', targetId: '1' }]);
    const miss = tagGame.step(start, tag, 1 / 60, { rewound: undefined });
    expect(miss.events).toEqual([{ type: 'tagMissed', taggerId: '0' }]);
    let state = hit.state;
    for (let i = 0; i < 3; i += 1) state = tagGame.step(state, new Map(), 1 / 60, { rewound: undefined }).state;
    expect(tagGame.phase(state)).toBe('ended');
    const standings = tagGame.standings(state);
    expect(standings.winners).toEqual(state.winnerIds);
    expect(standings.scores).toEqual(state.players.map((p) => ({ id: p.id, score: p.score, stat: p.tags })));
    expect(standings.scores.find((s) => s.id === '0')?.stat).toBe(1);
  });

  it('goes back to waiting when a player leaves a two-player round', () => {
    const state = tagGame.create({ players, seed: 2, roundDuration: 30 });
    expect(tagGame.phase(tagGame.removePlayer(state, '1'))).toBe('waiting');
    expect(tagGame.removePlayer(state, 'nobody')).toBe(state);
  });

  it('snapshots and parses its world, and records every player for lag compensation', () => {
    const state = tagGame.create({ players, seed: 2, roundDuration: 30 });
    const snapshot = tagGame.snapshot.of(state, new Map([['1', 4]]));
    expect(tagGame.snapshot.parse(JSON.parse(JSON.stringify({ ...snapshot, g: 9 })))).toEqual(snapshot);
    expect(tagGame.snapshot.parse({ ...snapshot, ph: 'paused' })).toBeUndefined();
    expect([...(tagGame.lagPositions?.(state) ?? [])].map((p) => [p.id, p.x, p.y])).toEqual(
      state.players.map((p) => [p.id, p.x, p.y]),
    );
  });

  it('makes a client view that predicts on the definition’s arena', () => {
    const game = createTagGame({ arena: { width: 200, height: 200, obstacles: [] }, countdown: 0 });
    const state = game.create({ players, seed: 2, roundDuration: 30 });
    const view = game.createView({ playerId: '0', interpolationDelay: 0.1 });
    expect(view.interpolationDelay).toBe(0.1);
    expect(view.advance(0, { moveX: 1, moveY: 0, tag: false })).toEqual([]);
    view.applySnapshot(game.snapshot.of(state, new Map()), 0);
    let now = 0;
    for (let i = 0; i < 120; i += 1) view.advance((now += 1 / 60), { moveX: 1, moveY: 0, tag: false });
    const self = view.sample(now).players.find((p) => p.self);
    expect(self?.x).toBeCloseTo(200 - 20, 0); // against the right wall of the 200-wide arena
  });
});

describe('tag input codec', () => {
  it('round-trips inputs through the wire tuple', () => {
    const input = { sequence: 42, moveX: -0.5, moveY: 1, tag: true };
    const wire = tagInputCodec.toWire(input);
    expect(wire).toEqual([42, -0.5, 1, 1]);
    expect(tagInputCodec.fromWire(tagInputCodec.wireSchema.parse(JSON.parse(JSON.stringify(wire))))).toEqual(input);
  });

  it('bounds sequences and flags on the wire, and is strict about the object form', () => {
    for (const bad of [
      [0, 0, 0, 0],
      [MAX_INPUT_SEQUENCE + 1, 0, 0, 0],
      [1.5, 0, 0, 0],
      [1, 0, 0, 2],
      [1, 'x', 0, 0],
    ]) {
      expect(tagInputCodec.wireSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(tagInputCodec.schema.safeParse({ sequence: 1, moveX: 0, moveY: 0, tag: false }).success).toBe(true);
    for (const bad of [
      { sequence: 1, moveX: 2, moveY: 0, tag: false },
      { sequence: 1, moveX: 0, moveY: 0, tag: 1 },
      { sequence: 1, moveX: 0, moveY: 0, tag: false, extra: 1 },
    ]) {
      expect(tagInputCodec.schema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('repeats movement without the tag, and carries a dropped tag into the next input', () => {
    const move = { sequence: 3, moveX: 1, moveY: 0, tag: true };
    expect(tagInputCodec.repeat(move)).toEqual({ ...move, tag: false });
    const next = { sequence: 4, moveX: 0, moveY: 1, tag: false };
    expect(tagInputCodec.carry(move, next)).toEqual({ ...next, tag: true });
    expect(tagInputCodec.carry({ ...move, tag: false }, next)).toBe(next);
    expect(tagInputCodec.neutral).toEqual({ sequence: 0, moveX: 0, moveY: 0, tag: false });
  });
});
