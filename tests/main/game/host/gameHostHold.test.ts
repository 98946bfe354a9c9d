import { describe, expect, it } from 'vitest';
import { GameMessage } from '../../../../shared/game/gameProtocol';
import { inputPayload, placing, startHost } from '../hostKit';

/** The ack (last processed input sequence) of player `id` in the newest snapshot. */
function ackOf(kit: ReturnType<typeof startHost>, id: string): number | undefined {
  return kit
    .snapshots()
    .at(-1)
    ?.p.find((p) => p[0] === id)?.[8] as number | undefined;
}

describe('GameHost held seats', () => {
  it('keeps a held player in the round with its score, standing still instead of repeating its last input', () => {
    const kit = startHost({ prepare: placing({ '1': { x: 400, y: 400, score: 12 } }) });
    for (let seq = 1; seq <= 10; seq += 1) {
      kit.transport.deliver(1, GameMessage.INPUT, inputPayload(7, [seq], { moveX: 1 }));
      kit.ticks(1);
    }
    const movedTo = kit.player('1').x;
    expect(movedTo).toBeGreaterThan(400);
    expect(kit.host.holdPlayer('1')).toBe(true);
    const scoreWhenHeld = kit.player('1').score;
    kit.ticks(120);
    // Still in the round, its score kept (tag: time not "it" keeps counting), and it coasts to a stop: no input
    // repeated, so it ends far short of where 120 more ticks of "right" would take it.
    expect(kit.host.state.players.map((p) => p.id)).toEqual(['0', '1', '2']);
    expect(kit.player('1').score).toBeGreaterThanOrEqual(scoreWhenHeld);
    const stopped = kit.player('1').x;
    kit.ticks(60);
    expect(kit.player('1').x).toBeCloseTo(stopped, 3);
    expect(kit.host.stats().inputs.repeated).toBe(0);
  });

  it('resumes a held player: new inputs count whatever their sequence, and the ack skips the gap', () => {
    const kit = startHost({ prepare: placing({ '1': { x: 400, y: 400 } }) });
    for (let seq = 1; seq <= 20; seq += 1) {
      kit.transport.deliver(1, GameMessage.INPUT, inputPayload(7, [seq]));
      kit.ticks(1);
    }
    kit.ticks(2);
    expect(ackOf(kit, '1')).toBe(20);
    kit.host.holdPlayer('1');
    kit.ticks(2);
    // While held, the snapshots acknowledge nothing for it (-1 on the wire): its prediction keeps its inputs pending.
    expect(ackOf(kit, '1')).toBe(-1);
    const rosters = kit.transport.ofType(GameMessage.ROSTER).length;
    expect(kit.host.resumePlayer('1')).toBe(true);
    // Everyone gets the roster again: the returning link may have missed one.
    expect(kit.transport.ofType(GameMessage.ROSTER)).toHaveLength(rosters + 1);
    // The guest sent inputs 21–400 into the gap; the first to arrive after the resume are 396–400.
    kit.transport.deliver(1, GameMessage.INPUT, inputPayload(7, [396, 397, 398, 399, 400], { moveX: 1 }));
    kit.ticks(2);
    const ack = ackOf(kit, '1');
    expect(ack).toBeGreaterThanOrEqual(396);
    expect(ack).toBeLessThanOrEqual(400);
    expect(kit.player('1').x).toBeGreaterThan(400);
  });

  it('takes a resumed guest whose inputs start again from 1 (a new game link)', () => {
    const kit = startHost({ prepare: placing({ '2': { x: 400, y: 400 } }) });
    for (let seq = 500; seq <= 510; seq += 1) {
      kit.transport.deliver(2, GameMessage.INPUT, inputPayload(7, [seq]));
      kit.ticks(1);
    }
    kit.host.holdPlayer('2');
    kit.host.resumePlayer('2');
    for (let seq = 1; seq <= 5; seq += 1) {
      kit.transport.deliver(2, GameMessage.INPUT, inputPayload(7, [seq], { moveY: 1 }));
      kit.ticks(1);
    }
    kit.ticks(1);
    expect(ackOf(kit, '2')).toBe(5);
    expect(kit.player('2').y).toBeGreaterThan(400);
    expect(kit.host.stats().inputs.stale).toBe(0);
  });

  it('removes a held player whose seat is let go, and answers false for anyone not playing', () => {
    const kit = startHost();
    kit.host.holdPlayer('2');
    kit.transport.disconnect(2);
    expect(kit.host.state.players.map((p) => p.id)).toEqual(['0', '1']);
    expect(kit.host.holdPlayer('2')).toBe(false);
    expect(kit.host.resumePlayer('2')).toBe(false);
    expect(kit.host.resumePlayer('9')).toBe(false);
    kit.host.stop();
    expect(kit.host.holdPlayer('1')).toBe(false);
  });
});
