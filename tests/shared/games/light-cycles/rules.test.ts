import { describe, expect, it } from 'vitest';
import { GAME_TICK_DT } from '../../../../shared/game/gameProtocol';
import { spawnPoints } from '../../../../shared/games/light-cycles/createRound';
import { lightCyclesGame } from '../../../../shared/games/light-cycles/lightCyclesGame';
import { RULES } from '../../../../shared/games/light-cycles/rules';
import { removeCycle, step } from '../../../../shared/games/light-cycles/step';
import { cycle, placed, ride, round } from './cyclesKit';

describe('light cycles: the rules', () => {
  it('moves every cycle one cell each RULES.moveTicks ticks and lays its trail', () => {
    const start = placed(round(2), { '0': { x: 1, y: 1, heading: 1 }, '1': { x: 1, y: 6, heading: 1 } });
    let state = start;
    for (let t = 1; t < RULES.moveTicks; t++) state = step(state, new Map(), GAME_TICK_DT).state;
    expect(cycle(state, '0')).toMatchObject({ x: 1, y: 1, cells: 0 });
    state = step(state, new Map(), GAME_TICK_DT).state;
    expect(cycle(state, '0')).toMatchObject({ x: 2, y: 1, cells: 1 });
    expect(state.trail[1 * state.width + 1]).toBe(1);
    expect(state.trail[1 * state.width + 2]).toBe(1);
    expect(state.trail[6 * state.width + 2]).toBe(2);
    expect(start.trail[1 * state.width + 2]).toBe(0); // pure: the old state is untouched
  });

  it('turns on a press, ignores a reverse, and keeps two quick presses for a U-turn', () => {
    const start = placed(round(2), { '0': { x: 5, y: 3, heading: 1 }, '1': { x: 0, y: 7, heading: 1 } });
    const reversed = ride(start, 1, { 0: { '0': 3 } }).state;
    expect(cycle(reversed, '0')).toMatchObject({ x: 6, y: 3, heading: 1 });
    const inputs = (turn: 0 | 1 | 2 | 3) => new Map([['0', { sequence: 1, turn }]]);
    let state = step(start, inputs(2), GAME_TICK_DT).state;
    state = step(state, inputs(3), GAME_TICK_DT).state;
    expect(cycle(state, '0').turns).toEqual([2, 3]);
    state = ride(state, 2).state;
    expect(cycle(state, '0')).toMatchObject({ x: 4, y: 4, heading: 3 });
    expect(cycle(state, '0').corners).toEqual([
      { x: 5, y: 3 },
      { x: 5, y: 3 },
      { x: 5, y: 4 },
    ]);
  });

  it('eliminates cycles that ride into the wall, one by one; the last cycle riding wins', () => {
    const start = placed(round(3), {
      '0': { x: 10, y: 1, heading: 1 },
      '1': { x: 9, y: 3, heading: 1 },
      '2': { x: 1, y: 6, heading: 1 },
    });
    const first = ride(start, 2);
    expect(first.events).toContainEqual({ type: 'crashed', id: '0', cause: 'wall' });
    expect(cycle(first.state, '0')).toMatchObject({ alive: false, x: 11, y: 1 });
    expect(first.state.phase).toBe('playing');
    const { state, events } = ride(first.state, 1);
    expect(events).toContainEqual({ type: 'crashed', id: '1', cause: 'wall' });
    expect(state.phase).toBe('ended');
    expect(state.winnerIds).toEqual(['2']);
    expect(lightCyclesGame.standings(state).winners).toEqual(['2']);
    expect(events).toContainEqual({ type: 'round-over', winners: ['2'] });
    // The standings rank by riders outlasted (elimination order); the seconds ridden are kept for the HUD.
    const score = (id: string) => lightCyclesGame.standings(state).scores.find((s) => s.id === id)!.score;
    expect([score('0'), score('1'), score('2')]).toEqual([0, 1, 2]);
    expect(cycle(state, '1').survived).toBeGreaterThan(cycle(state, '0').survived);
  });

  it('eliminates a cycle that hits a trail, its own or another’s', () => {
    const start = placed(round(3), {
      '0': { x: 2, y: 2, heading: 1 },
      '1': { x: 4, y: 1, heading: 2 },
      '2': { x: 0, y: 7, heading: 1 },
    });
    // 1 rides down through (4,2) first; 0 reaches (4,2) a move later, into 1's trail.
    const { state, events } = ride(start, 2);
    expect(events).toContainEqual({ type: 'crashed', id: '0', cause: 'trail' });
    expect(cycle(state, '1').alive).toBe(true);
    expect(state.phase).toBe('playing');
    // A tight loop into its own trail.
    const own = placed(round(2), { '0': { x: 5, y: 3, heading: 1 }, '1': { x: 0, y: 7, heading: 1 } });
    const looped = ride(own, 4, { 0: { '0': 2 }, 1: { '0': 3 }, 2: { '0': 0 }, 3: { '0': 1 } });
    expect(looped.events).toContainEqual({ type: 'crashed', id: '0', cause: 'trail' });
  });

  it('eliminates both cycles of a head-on crash into one cell, and of two swapping cells: a draw', () => {
    const sameCell = placed(round(2), { '0': { x: 3, y: 3, heading: 1 }, '1': { x: 5, y: 3, heading: 3 } });
    const one = ride(sameCell, 1);
    expect(one.events.filter((e) => e.type === 'crashed')).toEqual([
      { type: 'crashed', id: '0', cause: 'head-on' },
      { type: 'crashed', id: '1', cause: 'head-on' },
    ]);
    expect(one.state.phase).toBe('ended');
    expect(one.state.winnerIds).toEqual(['0', '1']);
    const swap = placed(round(2), { '0': { x: 3, y: 3, heading: 1 }, '1': { x: 4, y: 3, heading: 3 } });
    const two = ride(swap, 1);
    expect(two.events.filter((e) => e.type === 'crashed').map((e) => e.type === 'crashed' && e.cause)).toEqual([
      'head-on',
      'head-on',
    ]);
    expect(two.state.winnerIds).toEqual(['0', '1']);
    const [a, b] = lightCyclesGame.standings(two.state).scores;
    expect(a!.score).toBe(b!.score);
  });

  it('ends at the bell with everyone still riding as winners', () => {
    const start = {
      ...placed(round(2), { '0': { x: 0, y: 1, heading: 1 }, '1': { x: 0, y: 5, heading: 1 } }),
      timeRemaining: 0.05,
    };
    const { state } = ride(start, 1);
    expect(state.phase).toBe('ended');
    expect(state.winnerIds).toEqual(['0', '1']);
  });

  it('freezes during the 3-2-1, where a press sets the starting heading (even backwards)', () => {
    let state = placed(round(2, { countdown: 0.5 }), {
      '0': { x: 5, y: 3, heading: 1 },
      '1': { x: 0, y: 7, heading: 1 },
    });
    state = step(state, new Map([['0', { sequence: 1, turn: 3 as const }]]), GAME_TICK_DT).state;
    for (let t = 0; t < 60; t++) state = step(state, new Map(), GAME_TICK_DT).state;
    expect(state.countdown).toBe(0);
    expect(cycle(state, '0')).toMatchObject({ heading: 3 });
    expect(cycle(state, '0').x).toBeLessThan(5);
  });

  it('plays 2 and 8 riders from distinct spawns, nobody facing a wall or anybody at the start', () => {
    for (const n of [2, 8]) {
      const spawns = spawnPoints(n, RULES.width, RULES.height);
      expect(new Set(spawns.map((s) => `${s.x},${s.y}`)).size).toBe(n);
      const state = lightCyclesGame.create({
        players: Array.from({ length: n }, (_, i) => ({ id: String(i), name: `P${i}`, colour: '#ffffff' })),
        seed: 5,
        roundDuration: 60,
      });
      expect(state.phase).toBe('playing');
      expect(state.cycles).toHaveLength(n);
      // The 3-2-1 then a full second of riding without any turn: nobody crashes.
      const after = ride({ ...state, countdown: 0 }, 10);
      expect(after.events.filter((e) => e.type === 'crashed')).toEqual([]);
    }
    const nine = Array.from({ length: 9 }, (_, i) => ({ id: String(i), name: `P${i}`, colour: '#ffffff' }));
    expect(() => lightCyclesGame.create({ players: nine, seed: 1, roundDuration: 60 })).toThrow(RangeError);
  });

  it('plays 8 riders to the end: eliminations one by one until one rides, never past the bell', () => {
    let state = {
      ...lightCyclesGame.create({
        players: Array.from({ length: 8 }, (_, i) => ({ id: String(i), name: `P${i}`, colour: '#ffffff' })),
        seed: 9,
        roundDuration: 60,
      }),
      countdown: 0,
    };
    let moves = 0;
    while (state.phase === 'playing' && moves < 1000) {
      state = ride(state, 1).state;
      moves += 1;
    }
    expect(state.phase).toBe('ended');
    expect(state.winnerIds.length).toBeGreaterThanOrEqual(1);
    const riding = state.cycles.filter((c) => c.alive);
    expect(riding.length).toBeLessThanOrEqual(1);
    if (riding.length === 1) expect(state.winnerIds).toEqual([riding[0]!.id]);
  });

  it('takes a rider out when it leaves; too few riders left end or stop the round', () => {
    const state = round(3);
    const two = removeCycle(state, '2');
    expect(two.cycles.map((c) => c.id)).toEqual(['0', '1']);
    expect(two.phase).toBe('playing');
    expect(removeCycle(two, '1').phase).toBe('waiting');
    expect(removeCycle(state, 'nobody')).toBe(state);
    const crashed = { ...state, cycles: state.cycles.map((c) => (c.id === '1' ? { ...c, alive: false } : c)) };
    const left = removeCycle(crashed, '2');
    expect(left.phase).toBe('ended');
    expect(left.winnerIds).toEqual(['0']);
  });
});
