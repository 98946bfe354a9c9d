import { describe, expect, it } from 'vitest';
import { GAME_TICK_DT } from '../../../../shared/game/gameProtocol';
import { CyclesView } from '../../../../shared/games/light-cycles/clientView';
import { lightCyclesGame } from '../../../../shared/games/light-cycles/lightCyclesGame';
import { RULES } from '../../../../shared/games/light-cycles/rules';
import { step } from '../../../../shared/games/light-cycles/step';
import type { CycleInput, CyclesState } from '../../../../shared/games/light-cycles/types';
import { cycle, placed, round } from './cyclesKit';

const SIZE = { width: 12, height: 8 };

/** A host and one client view of rider '0', the client's inputs arriving after `lag` ticks; time in ticks. */
function session(start: CyclesState, lag: number) {
  const view = new CyclesView('0', 0.1, SIZE);
  let state = start;
  let tick = 0;
  let acked = 0;
  const inFlight: { due: number; input: CycleInput }[] = [];
  const snapshot = () =>
    view.applySnapshot(lightCyclesGame.snapshot.of(state, new Map([['0', acked]])), tick * GAME_TICK_DT);
  snapshot();
  return {
    view,
    get state() {
      return state;
    },
    /** One client tick with `turn` and one host tick; a snapshot every 2nd tick unless `lose`. */
    tick(turn: CycleInput['turn'] = -1, lose = false) {
      tick += 1;
      for (const input of view.advance(tick * GAME_TICK_DT, { turn })) inFlight.push({ due: tick + lag, input });
      const arrived = inFlight.filter((f) => f.due <= tick);
      inFlight.splice(0, arrived.length);
      const inputs = new Map<string, CycleInput>();
      const input = arrived.at(-1)?.input;
      if (input !== undefined) {
        // One host tick per client tick: a turn in any arrived input is carried into the one applied.
        const turned = arrived.find((a) => a.input.turn !== -1)?.input.turn ?? -1;
        inputs.set('0', { ...input, turn: turned });
        acked = input.sequence;
      }
      state = step(state, inputs, GAME_TICK_DT).state;
      if (tick % 2 === 0 && !lose) snapshot();
      return view.sample(tick * GAME_TICK_DT);
    },
  };
}

const self = (frame: ReturnType<CyclesView['sample']>) => frame.cycles.find((c) => c.self)!;

describe('the light-cycles client view', () => {
  it('sends nothing before the first snapshot, then one input per 60 Hz tick, the turn on the first', () => {
    const view = new CyclesView('0', 0.1, SIZE);
    expect(view.advance(1, { turn: 2 })).toEqual([]);
    view.applySnapshot(lightCyclesGame.snapshot.of(round(2), new Map()), 1);
    expect(view.advance(1, { turn: 2 })).toEqual([{ sequence: 1, turn: 2 }]);
    expect(view.advance(1 + 3.5 * GAME_TICK_DT, { turn: 1 })).toEqual([
      { sequence: 2, turn: 1 },
      { sequence: 3, turn: -1 },
      { sequence: 4, turn: -1 },
    ]);
    expect(view.pendingInputs).toBe(4);
    // A turn pressed in a frame with no tick due (a 144 Hz display) goes out with the next tick, not lost.
    const next = 1 + 4 * GAME_TICK_DT;
    expect(view.advance(next - 0.4 * GAME_TICK_DT, { turn: 3 })).toEqual([]);
    expect(view.advance(next, { turn: -1 })).toEqual([{ sequence: 5, turn: 3 }]);
    expect(view.advance(next + GAME_TICK_DT, { turn: -1 })).toEqual([{ sequence: 6, turn: -1 }]);
  });

  it('predicts a turn at the next move, before the host has it, and agrees with the host once it has', () => {
    const start = placed(round(2), { '0': { x: 2, y: 2, heading: 1 }, '1': { x: 1, y: 7, heading: 1 } });
    const game = session(start, 8);
    for (let t = 0; t < RULES.moveTicks - 1; t++) game.tick();
    // The host will not see the press for 8 ticks; the view turns at its next predicted move (turns wait for a move).
    game.tick(2);
    for (let t = 0; t < 3; t++) game.tick();
    const predicted = self(game.tick());
    expect(predicted.heading).toBe(2);
    expect(cycle(game.state, '0')).toMatchObject({ heading: 1, turns: [] });
    expect(game.view.pendingInputs).toBeGreaterThan(0);
    // The prediction is where the host will have the rider once it has these inputs: 8 ticks later, exactly.
    for (let t = 0; t < 2 * RULES.moveTicks; t++) game.tick();
    const foreseen = self(game.tick());
    for (let t = 0; t < 8; t++) game.tick();
    const host = cycle(game.state, '0');
    const progress = game.state.sinceMove / RULES.moveTicks;
    const from = {
      x: host.x - (host.heading === 1 ? 1 : host.heading === 3 ? -1 : 0),
      y: host.y - (host.heading === 2 ? 1 : host.heading === 0 ? -1 : 0),
    };
    expect(host.heading).toBe(2);
    expect(foreseen.x).toBeCloseTo(from.x + (host.x - from.x) * progress, 9);
    expect(foreseen.y).toBeCloseTo(from.y + (host.y - from.y) * progress, 9);
    expect(foreseen.trail.at(-1)!.at(-2)).toEqual(host.corners.at(-1));
  });

  it('stops the predicted head at a wall instead of riding through it', () => {
    // Three riders, so the round goes on after the host's crash and the view keeps predicting.
    const start = placed(round(3), {
      '0': { x: 10, y: 2, heading: 1 },
      '1': { x: 1, y: 7, heading: 1 },
      '2': { x: 1, y: 5, heading: 1 },
    });
    const game = session(start, 30);
    let frame = game.tick();
    for (let t = 0; t < 3 * RULES.moveTicks; t++) frame = game.tick();
    expect(self(frame).x).toBeLessThanOrEqual(11);
    expect(self(frame).alive).toBe(false);
  });

  it('draws another rider between snapshots, smoothly along its path', () => {
    const start = placed(round(2), { '0': { x: 1, y: 1, heading: 1 }, '1': { x: 1, y: 5, heading: 1 } });
    const game = session(start, 0);
    const xs: number[] = [];
    for (let t = 0; t < 4 * RULES.moveTicks; t++) xs.push(game.tick().cycles.find((c) => c.id === '1')!.x);
    const steps = xs.slice(13).map((x, i) => x - xs[12 + i]!);
    // Never backwards, never more than a cell per tick, and between whole cells on some frames.
    expect(Math.min(...steps)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...steps)).toBeLessThan(1);
    expect(xs.some((x) => !Number.isInteger(x))).toBe(true);
    expect(xs.at(-1)!).toBeGreaterThan(xs[0]!);
  });

  it('keeps every corner of a trail across lost snapshots', () => {
    const start = placed(round(2), { '0': { x: 1, y: 1, heading: 1 }, '1': { x: 1, y: 4, heading: 1 } });
    const view = new CyclesView('0', 0.1, SIZE);
    let state = start;
    const turns: CycleInput['turn'][] = [2, 1, 2, 1, 0];
    for (let m = 0; m < 6; m++) {
      for (let t = 0; t < RULES.moveTicks; t++) {
        const turn = t === 0 && m < turns.length ? turns[m]! : -1;
        state = step(state, new Map([['1', { sequence: 1, turn }]]), GAME_TICK_DT).state;
      }
      // Only every third move's snapshot arrives; each repeats the last few corners.
      if (m % 3 === 2) view.applySnapshot(lightCyclesGame.snapshot.of(state, new Map()), m);
    }
    const other = view.sample(10).cycles.find((c) => c.id === '1')!;
    expect(other.trail).toHaveLength(1);
    expect(other.trail[0]!.slice(0, -1)).toEqual(cycle(state, '1').corners);
  });

  it('keeps only the newest snapshot for prediction, whatever order they arrive in', () => {
    const start = round(2);
    const view = new CyclesView('0', 0.1, SIZE);
    const later = step(start, new Map(), GAME_TICK_DT).state;
    view.applySnapshot(lightCyclesGame.snapshot.of(later, new Map()), 1);
    view.applySnapshot(lightCyclesGame.snapshot.of(start, new Map()), 1.01);
    expect(view.sample(1.02).tick).toBe(later.tick);
  });

  it('with the adaptive delay draws the other riders as far in the past as the newest snapshot is old when drawn', () => {
    for (const drawnAfter of [0.002, GAME_TICK_DT - 0.002]) {
      const view = new CyclesView('0', 'adaptive', SIZE);
      expect(view.interpolationDelay).toBe(0.1); // until it has measured the frames
      let state = round(2);
      for (let tick = 1; tick <= 120 && state.phase === 'playing'; tick++) {
        state = step(state, new Map(), GAME_TICK_DT).state;
        view.applySnapshot(lightCyclesGame.snapshot.of(state, new Map()), 10 + tick * GAME_TICK_DT + 0.002);
        view.sample(10 + tick * GAME_TICK_DT + 0.002 + drawnAfter);
      }
      // Each frame comes `drawnAfter` past a snapshot's arrival: that, plus a 3 ms margin (5 ms at least).
      expect(view.interpolationDelay).toBeGreaterThan(drawnAfter + 0.0025);
      expect(view.interpolationDelay).toBeLessThan(Math.max(0.005, drawnAfter + 0.003) + 0.001);
    }
  });

  it('refuses a negative fixed delay', () => {
    expect(() => new CyclesView('0', -0.1, SIZE)).toThrow(RangeError);
  });
});
