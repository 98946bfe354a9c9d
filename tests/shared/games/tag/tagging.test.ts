import { describe, expect, it } from 'vitest';
import { createLagCompensatedLookup } from '../../../../shared/game/lagLookup';
import { RULES, TAG_REACH } from '../../../../shared/games/tag/rules';
import { step, stepWithEvents } from '../../../../shared/games/tag/step';
import type { GameState, Vec2 } from '../../../../shared/games/tag/types';
import { SnapshotInterpolator } from '../../../../shared/net/snapshotInterpolator';
import { input, openGame, player, withIt, withPlayers } from './fixtures';

const DT = 1 / 60;

/** a is "it" at (400, 450); b and c placed as given; nobody moving. */
function setup(b: Vec2, c: Vec2 = { x: 1400, y: 800 }): GameState {
  return withPlayers(withIt(openGame(), 'a'), { a: { x: 400, y: 450 }, b, c });
}

describe('tagging', () => {
  it('tags a player within reach: "it" passes over with a cooldown', () => {
    const { state, events } = stepWithEvents(setup({ x: 400 + TAG_REACH - 1, y: 450 }), { a: input(0, 0, true) }, DT);
    expect(events).toEqual([{ type: 'tag', taggerId: 'a', targetId: 'b' }]);
    expect(player(state, 'a')).toMatchObject({ it: false, tags: 1 });
    expect(player(state, 'b')).toMatchObject({ it: true, cooldown: RULES.tagCooldown });
    expect(state.players.filter((p) => p.it)).toHaveLength(1);
  });

  it('misses a player just out of reach and puts the tagger on a short cooldown', () => {
    const { state, events } = stepWithEvents(setup({ x: 400 + TAG_REACH + 1, y: 450 }), { a: input(0, 0, true) }, DT);
    expect(events).toEqual([{ type: 'tagMissed', taggerId: 'a' }]);
    expect(player(state, 'a')).toMatchObject({ it: true, cooldown: RULES.missCooldown });
    expect(player(state, 'b').it).toBe(false);
  });

  it('needs the tag button: being close is not enough', () => {
    const state = step(setup({ x: 410, y: 450 }), { a: input(0, 0, false) }, DT);
    expect(player(state, 'a').it).toBe(true);
  });

  it('ignores the tag button of players who are not "it"', () => {
    const { state, events } = stepWithEvents(setup({ x: 410, y: 450 }), { b: input(0, 0, true) }, DT);
    expect(events).toEqual([]);
    expect(player(state, 'a').it).toBe(true);
  });

  it('picks the nearest player in reach', () => {
    const state = step(setup({ x: 440, y: 450 }, { x: 420, y: 450 }), { a: input(0, 0, true) }, DT);
    expect(player(state, 'c').it).toBe(true);
    expect(player(state, 'b').it).toBe(false);
  });

  it('forbids tag-backs: the old "it" is immune for RULES.tagBackImmunity, longer than the new one\'s cooldown', () => {
    expect(RULES.tagBackImmunity).toBeGreaterThanOrEqual(2 * RULES.tagCooldown);
    let state = step(setup({ x: 420, y: 450 }), { a: input(0, 0, true) }, DT);
    expect(player(state, 'b').it).toBe(true);
    expect(player(state, 'a').immunity).toBe(RULES.tagBackImmunity);
    // b presses tag every tick, right next to a: nothing lands while a is immune, cooldown over or not.
    const immuneTicks = Math.round(RULES.tagBackImmunity / DT);
    for (let i = 0; i < immuneTicks - 1; i += 1) {
      state = step(state, { b: input(0, 0, true) }, DT);
      expect(player(state, 'b').it).toBe(true);
      expect(player(state, 'a').immunity).toBeGreaterThan(0);
    }
    state = step(state, { b: input(0, 0, true) }, DT);
    expect(player(state, 'a').immunity).toBe(0);
    // b's misses on the immune player left it a miss cooldown; once that is over the tag lands.
    for (let i = 0; i <= Math.ceil(RULES.missCooldown / DT) && !player(state, 'a').it; i += 1) {
      state = step(state, { b: input(0, 0, true) }, DT);
    }
    expect(player(state, 'a').it).toBe(true);
    // …and now b, the one who passed it on, is the immune one.
    expect(player(state, 'b')).toMatchObject({ it: false, immunity: RULES.tagBackImmunity });
  });

  it('an immune player is skipped, so a tag lands on someone else in reach or misses', () => {
    const state = withPlayers(setup({ x: 420, y: 450 }, { x: 400, y: 450 + TAG_REACH - 2 }), { b: { immunity: 1 } });
    const { state: next, events } = stepWithEvents(state, { a: input(0, 0, true) }, DT);
    expect(events).toEqual([{ type: 'tag', taggerId: 'a', targetId: 'c' }]);
    expect(player(next, 'b').it).toBe(false);
    const alone = withPlayers(setup({ x: 420, y: 450 }), { b: { immunity: 1 } });
    expect(stepWithEvents(alone, { a: input(0, 0, true) }, DT).events).toEqual([{ type: 'tagMissed', taggerId: 'a' }]);
  });

  it('cannot retry straight after a miss', () => {
    let state = setup({ x: 400 + TAG_REACH + 30, y: 450 });
    state = step(state, { a: input(0, 0, true) }, DT); // miss
    state = withPlayers(state, { b: { x: 420 } }); // b wanders into reach
    state = step(state, { a: input(0, 0, true) }, DT);
    expect(player(state, 'b').it).toBe(false);
    for (let i = 0; i < Math.ceil(RULES.missCooldown / DT); i += 1) state = step(state, { a: input(0, 0, true) }, DT);
    expect(player(state, 'b').it).toBe(true);
  });

  it('does not tag outside a running round', () => {
    const ended = { ...setup({ x: 410, y: 450 }), phase: 'ended' as const };
    expect(player(step(ended, { a: input(0, 0, true) }, DT), 'b').it).toBe(false);
  });

  it('tests against the injected position lookup when it answers, else the current position', () => {
    const state = setup({ x: 1000, y: 450 });
    const asSeen = (targetId: string, shooterId: string): Vec2 | undefined => {
      expect(shooterId).toBe('a');
      return targetId === 'b' ? { x: 420, y: 450 } : undefined;
    };
    expect(player(step(state, { a: input(0, 0, true) }, DT, { targetPositionAt: asSeen }), 'b').it).toBe(true);
    const broken = () => ({ x: Number.NaN, y: 0 });
    expect(player(step(state, { a: input(0, 0, true) }, DT, { targetPositionAt: broken }), 'b').it).toBe(false);
  });
});

describe('lag-compensated tagging', () => {
  /**
   * b runs away from a at about 300 units/s for 0.25 s while the host records everyone's position after each tick.
   * The shooter a has 200 ms of total delay, so on its screen b was still within reach; on the host it is not.
   */
  function chase() {
    const clock = { t: 0 };
    const histories = new Map<string, SnapshotInterpolator<Vec2>>();
    const record = (s: GameState) => {
      for (const p of s.players) {
        let history = histories.get(p.id);
        if (!history) {
          history = new SnapshotInterpolator<Vec2>({ now: () => clock.t });
          histories.set(p.id, history);
        }
        history.add({ x: p.x, y: p.y });
      }
    };
    let state = withPlayers(setup({ x: 430, y: 450 }), { b: { vx: 300 } });
    record(state);
    for (let i = 0; i < 15; i += 1) {
      state = step(state, { b: input(1, 0) }, DT);
      clock.t += DT;
      record(state);
    }
    return { state, histories, clock };
  }

  it('lands a tag the host would miss against the current position', () => {
    const { state, histories } = chase();
    expect(player(state, 'b').x - player(state, 'a').x).toBeGreaterThan(TAG_REACH);
    const unaided = step(state, { a: input(0, 0, true) }, DT);
    expect(player(unaided, 'b').it).toBe(false);
    const targetPositionAt = createLagCompensatedLookup({
      historyFor: (id) => histories.get(id),
      rewindTimeFor: () => 0.2,
    });
    const seen = targetPositionAt('b', 'a');
    expect(seen?.x).toBeGreaterThan(430); // interpolated inside the history, not clamped to its start
    expect(seen?.x).toBeLessThan(400 + TAG_REACH);
    const compensated = step(state, { a: input(0, 0, true) }, DT, { targetPositionAt });
    expect(player(compensated, 'b').it).toBe(true);
  });

  it('caps the rewind, so an implausible lag claim gains nothing', () => {
    const { state, histories } = chase();
    const lookup = createLagCompensatedLookup({
      historyFor: (id) => histories.get(id),
      rewindTimeFor: () => 5,
      maxRewind: 0.02,
    });
    expect(player(step(state, { a: input(0, 0, true) }, DT, { targetPositionAt: lookup }), 'b').it).toBe(false);
  });

  it('falls back to the current position without a history or rewind, and validates maxRewind', () => {
    const lookup = createLagCompensatedLookup({ historyFor: () => undefined, rewindTimeFor: () => 0.1 });
    expect(lookup('b', 'a')).toBeUndefined();
    const { histories } = chase();
    const noRewind = createLagCompensatedLookup({
      historyFor: (id) => histories.get(id),
      rewindTimeFor: () => Number.NaN,
    });
    expect(noRewind('b', 'a')).toBeUndefined();
    expect(() =>
      createLagCompensatedLookup({ historyFor: () => undefined, rewindTimeFor: () => 0, maxRewind: -1 }),
    ).toThrow(RangeError);
  });

  it('reads a nested position through fieldPath', () => {
    const history = new SnapshotInterpolator<{ body: Vec2 }>({ now: () => 1 });
    history.add({ body: { x: 5, y: 6 } });
    const lookup = createLagCompensatedLookup({
      historyFor: () => history,
      rewindTimeFor: () => 0,
      fieldPath: ['body'],
    });
    expect(lookup('b', 'a')).toEqual({ x: 5, y: 6 });
  });
});
