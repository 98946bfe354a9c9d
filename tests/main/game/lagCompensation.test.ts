import { describe, expect, it } from 'vitest';
import { GameMessage } from '../../../shared/game/gameProtocol';
import { TAG_REACH } from '../../../shared/games/tag/rules';
import type { GameEvent, GameState } from '../../../shared/games/tag/types';
import { inputPayload, placing, startHost } from './hostKit';

const SHOOTER = { x: 800, y: 450 };
const LANE_OFFSET = 45; // the target passes 45 units below the shooter: inside TAG_REACH (56) only when level with it
const RTT = 0.06;
const INTERPOLATION_DELAY = 0.1;

/**
 * Guest 1 ("it") stands still; guest 2 runs right at full speed past it. Guest 1 tags at the moment its view — drawn
 * RTT + interpolation delay in the past — shows the target level with it. Returns what the host decided.
 */
function runScenario(lagCompensation: boolean) {
  const events: { events: readonly GameEvent[]; state: GameState }[] = [];
  const kit = startHost({
    lagCompensation,
    prepare: placing({
      '0': { x: 100, y: 100, it: false },
      '1': { ...SHOOTER, it: true, cooldown: 0 },
      '2': { x: 300, y: SHOOTER.y + LANE_OFFSET, vx: 320, it: false, cooldown: 0 },
    }),
    onEvents: (e, state) => events.push({ events: e, state }),
  });
  kit.transport.rtts.set(1, RTT);
  const track: { t: number; x: number }[] = [{ t: 0, x: kit.player('2').x }];
  const xAt = (t: number): number => {
    const i = track.findIndex((s) => s.t >= t);
    const b = track[i];
    const a = track[i - 1];
    if (b === undefined || a === undefined) throw new Error(`no track at ${t}`);
    return a.x + ((b.x - a.x) * (t - a.t)) / (b.t - a.t);
  };
  let seen: { x: number; y: number } | undefined;
  for (let seq = 1; seq <= 200 && seen === undefined; seq += 1) {
    kit.transport.deliver(2, GameMessage.INPUT, inputPayload(7, [seq], { moveX: 1 }));
    const viewTime = kit.host.state.elapsed - RTT - INTERPOLATION_DELAY;
    const fire = viewTime > 0 && xAt(viewTime) >= SHOOTER.x;
    if (fire) seen = { x: xAt(viewTime), y: SHOOTER.y + LANE_OFFSET };
    kit.transport.deliver(1, GameMessage.INPUT, inputPayload(7, [seq], { tag: fire, d: INTERPOLATION_DELAY }));
    kit.ticks(1);
    track.push({ t: kit.host.state.elapsed, x: kit.player('2').x });
  }
  return { seen, events, kit };
}

describe('lag-compensated tags on the host', () => {
  it('lands a tag the shooter saw, which the target’s current position would have missed', () => {
    const { seen, events, kit } = runScenario(true);
    expect(seen).toBeDefined();
    expect(Math.hypot(seen!.x - SHOOTER.x, seen!.y - SHOOTER.y)).toBeLessThan(TAG_REACH);
    expect(events).toHaveLength(1);
    const [{ events: happened, state }] = events as [(typeof events)[number]];
    expect(happened).toEqual([{ type: 'tag', taggerId: '1', targetId: '2' }]);
    // Where the target really was on the host when the tag resolved: out of reach.
    const target = state.players.find((p) => p.id === '2')!;
    const shooter = state.players.find((p) => p.id === '1')!;
    expect(Math.hypot(target.x - shooter.x, target.y - shooter.y)).toBeGreaterThan(TAG_REACH);
    expect(target.it).toBe(true);
    expect(kit.host.stats().ticks).toBeGreaterThan(60);
  });

  it('misses the same shot without lag compensation', () => {
    const { events } = runScenario(false);
    expect(events.map((e) => e.events)).toEqual([[{ type: 'tagMissed', taggerId: '1' }]]);
  });

  it('never rewinds past the 0.35 s cap, however large the RTT and reported delay', () => {
    const events: GameEvent[] = [];
    const kit = startHost({
      prepare: placing({
        '0': { x: 100, y: 100, it: false },
        '1': { ...SHOOTER, it: true, cooldown: 0 },
        '2': { x: 300, y: SHOOTER.y + LANE_OFFSET, vx: 320, it: false, cooldown: 0 },
      }),
      onEvents: (e) => events.push(...e),
    });
    kit.transport.rtts.set(1, 5); // a huge (or spoofed) RTT, plus a 9 s "interpolation delay" below
    let seq = 1;
    for (; kit.player('2').x < SHOOTER.x + 160; seq += 1) {
      kit.transport.deliver(2, GameMessage.INPUT, inputPayload(7, [seq], { moveX: 1 }));
      kit.transport.deliver(1, GameMessage.INPUT, inputPayload(7, [seq], { d: 9 }));
      kit.ticks(1);
    }
    // 0.35 s back the target was ~112 units behind: still ~48 past the shooter, out of reach. Unclamped, the rewind
    // would reach the oldest recorded position (~0.53 s back, level with the shooter) and land.
    kit.transport.deliver(2, GameMessage.INPUT, inputPayload(7, [seq], { moveX: 1 }));
    kit.transport.deliver(1, GameMessage.INPUT, inputPayload(7, [seq], { tag: true, d: 9 }));
    kit.ticks(1);
    expect(events).toEqual([{ type: 'tagMissed', taggerId: '1' }]);
  });
});
