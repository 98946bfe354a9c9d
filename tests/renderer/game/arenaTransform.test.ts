import { describe, expect, it } from 'vitest';
import { backingSize, fitArena, toCanvasX, toCanvasY, toWorld } from '../../../renderer/src/game/arenaTransform';

describe('arena transform', () => {
  it('fits a 16:9 arena exactly into a 16:9 canvas', () => {
    const t = fitArena(1600, 900, 800, 450);
    expect(t).toEqual({ scale: 0.5, offsetX: 0, offsetY: 0 });
    expect([toCanvasX(t, 1600), toCanvasY(t, 900)]).toEqual([800, 450]);
  });

  it('letterboxes a taller canvas and pillarboxes a wider one, centred, with margins', () => {
    const tall = fitArena(1600, 900, 800, 800);
    expect(tall.scale).toBe(0.5);
    expect(tall.offsetY).toBe((800 - 450) / 2);
    const wide = fitArena(1600, 900, 2000, 900, 50);
    expect(wide.scale).toBeCloseTo(800 / 900, 12);
    expect(toCanvasY(wide, 0)).toBeCloseTo(50, 9);
    expect(toCanvasX(wide, 800)).toBeCloseTo(1000, 9);
  });

  it('maps canvas points back to the world', () => {
    const t = fitArena(1600, 900, 1234, 777, 8);
    const back = toWorld(t, toCanvasX(t, 321), toCanvasY(t, 654));
    expect(back.x).toBeCloseTo(321, 9);
    expect(back.y).toBeCloseTo(654, 9);
  });

  it('a canvas smaller than its margins gets scale 0; a bad arena throws', () => {
    expect(fitArena(1600, 900, 10, 10, 20).scale).toBe(0);
    expect(toWorld(fitArena(1600, 900, 10, 10, 20), 5, 5)).toEqual({ x: 0, y: 0 });
    expect(() => fitArena(0, 900, 100, 100)).toThrow(RangeError);
  });

  it('sizes the backing store in device pixels, capped in area', () => {
    expect(backingSize(800, 450, 2)).toEqual({ width: 1600, height: 900, ratio: 2 });
    expect(backingSize(800, 450, Number.NaN)).toEqual({ width: 800, height: 450, ratio: 1 });
    expect(backingSize(0, 0, 1)).toEqual({ width: 1, height: 1, ratio: 1 });
    const capped = backingSize(4000, 2000, 2, 1_000_000);
    expect(capped.width * capped.height).toBeLessThanOrEqual(1_000_000 + capped.width + capped.height);
    expect(capped.width / capped.height).toBeCloseTo(2, 2);
  });
});
