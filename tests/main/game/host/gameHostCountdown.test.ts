import { describe, expect, it } from 'vitest';
import { GAME_TICK_DT, GameMessage } from '../../../../shared/game/gameProtocol';
import { RULES } from '../../../../shared/games/tag/rules';
import { createTagGame } from '../../../../shared/games/tag/tagGame';
import { inputPayload, OPEN_ARENA, startHost } from '../hostKit';

describe('GameHost and the round countdown', () => {
  it('is authoritative: a guest pushing and tagging during the 3-2-1 does not move, the snapshots count down', () => {
    const kit = startHost({ game: createTagGame({ arena: OPEN_ARENA }) });
    const start = { ...kit.player('1') };
    const ticks = Math.round(RULES.roundCountdown / GAME_TICK_DT);
    let seq = 0;
    for (let i = 0; i < ticks - 12; i += 1) {
      seq += 1;
      kit.transport.deliver(1, GameMessage.INPUT, inputPayload(7, [seq], { moveX: 1, moveY: 1, tag: true }));
      kit.ticks(1);
    }
    expect(kit.player('1')).toMatchObject({ x: start.x, y: start.y, score: 0 });
    expect(kit.host.state.timeRemaining).toBe(kit.host.state.roundDuration);
    const counts = kit.snapshots().map((s) => s.c ?? 0);
    expect(counts[0]).toBeGreaterThan(2.5);
    expect(counts.at(-1)).toBeGreaterThan(0);
    expect(counts.every((c, i) => i === 0 || c <= counts[i - 1]!)).toBe(true);
    // The inputs were acknowledged all the same, so the guest's prediction does not replay them.
    expect(
      kit
        .snapshots()
        .at(-1)
        ?.p.find((p) => p[0] === '1')?.[8],
    ).toBeGreaterThan(0);
    for (let i = 0; i < 16; i += 1) {
      seq += 1;
      kit.transport.deliver(1, GameMessage.INPUT, inputPayload(7, [seq], { moveX: 1, moveY: 0 }));
      kit.ticks(1);
    }
    expect(kit.host.state.countdown).toBe(0);
    expect(kit.player('1').x).toBeGreaterThan(start.x);
    expect(kit.snapshots().at(-1)?.c).toBeUndefined();
  });
});
