import { describe, expect, it } from 'vitest';
import { stageLayout, type StageSpace } from '../../../renderer/src/game/stageLayout';

const rules = { aspect: 16 / 9, sideWidth: 280, gap: 8, besideMinArenaWidth: 970, minArenaWidth: 480 };
const space = (width: number, height: number): StageSpace => ({ width, height, ...rules });

describe('stageLayout', () => {
  it('at the default window gives the arena the whole width it can, panels below (players 24 px)', () => {
    // 1100×690 of page: the room's 1028 px of width, 557 px of height left under the HUD.
    const layout = stageLayout(space(1028, 557));
    expect(layout).toEqual({ arena: { width: 990, height: 557 }, side: 'below' });
    expect(((layout.arena.width - 2 - 8) / 1600) * 40).toBeGreaterThanOrEqual(24);
  });

  it('puts the panels beside a large arena, taking only width the arena does not need first', () => {
    expect(stageLayout(space(1528, 860))).toEqual({ arena: { width: 1240, height: 697 }, side: 'beside' });
    // A wide, short stage: the arena is limited by height, so the panels cost it nothing.
    expect(stageLayout(space(1200, 400))).toEqual({ arena: { width: 711, height: 400 }, side: 'beside' });
  });

  it('keeps the aspect ratio and fills one dimension', () => {
    for (const [w, h] of [
      [1028, 557],
      [1528, 860],
      [888, 430],
      [2400, 1300],
      [700, 900],
    ] as const) {
      const { arena, side } = stageLayout(space(w, h));
      expect(Math.abs(arena.width / arena.height - 16 / 9)).toBeLessThan(0.01);
      const widthLeft = (side === 'beside' ? w - rules.sideWidth - rules.gap : w) - arena.width;
      const heightLeft = h - arena.height;
      expect(Math.min(widthLeft, heightLeft)).toBeLessThanOrEqual(2);
      expect(widthLeft).toBeGreaterThanOrEqual(0);
      expect(heightLeft).toBeGreaterThanOrEqual(0);
    }
  });

  it('grows with the space and never drops under the minimum width', () => {
    const small = stageLayout(space(888, 430)).arena.width;
    const large = stageLayout(space(1528, 860)).arena.width;
    expect(large).toBeGreaterThan(small);
    expect(stageLayout(space(200, 100)).arena).toEqual({ width: 480, height: 270 });
    expect(stageLayout(space(0, 0)).arena.width).toBe(480);
  });
});
