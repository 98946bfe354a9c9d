import { describe, expect, it } from 'vitest';
import { placeLabels, type Box, type LabelRequest } from '../../../renderer/src/game/labelPlacement';

const bounds: Box = { x: 0, y: 0, width: 1000, height: 600 };
const label = (x: number, y: number, width = 80): LabelRequest => ({ x, y, radius: 12, width, height: 20 });

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function circleBox(r: LabelRequest): Box {
  return { x: r.x - r.radius, y: r.y - r.radius, width: 2 * r.radius, height: 2 * r.radius };
}

describe('placeLabels', () => {
  it('puts a lone label centred above its circle, clear of it by the gap', () => {
    const [box] = placeLabels([label(500, 300)], bounds, 4);
    expect(box).toEqual({ x: 460, y: 300 - 12 - 4 - 20, width: 80, height: 20 });
  });

  it('keeps the labels of players who meet apart, and off every body', () => {
    // Three players bunched together, as when "it" catches up with two others.
    const requests = [label(500, 300), label(520, 305), label(505, 325)];
    const boxes = placeLabels(requests, bounds);
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) expect(overlaps(boxes[i]!, boxes[j]!)).toBe(false);
      for (const r of requests) expect(overlaps(boxes[i]!, circleBox(r))).toBe(false);
    }
  });

  it('gives the first request the best spot (above) and moves the later ones', () => {
    const boxes = placeLabels([label(500, 300), label(500, 300)], bounds);
    expect(boxes[0]!.y + boxes[0]!.height).toBeLessThanOrEqual(300 - 12);
    expect(boxes[1]!.y).toBeGreaterThanOrEqual(300 + 12); // below instead
  });

  it('stays inside the bounds at the edges and corners', () => {
    for (const [x, y] of [
      [5, 5],
      [995, 5],
      [5, 595],
      [995, 595],
      [500, 2],
    ] as const) {
      const [box] = placeLabels([label(x, y)], bounds);
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.y).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(1000);
      expect(box!.y + box!.height).toBeLessThanOrEqual(600);
      expect(overlaps(box!, circleBox(label(x, y)))).toBe(false);
    }
  });

  it('settles for the least overlap when there is no free side, and is deterministic', () => {
    const crowd = Array.from({ length: 16 }, (_, i) => label(480 + (i % 4) * 12, 280 + Math.floor(i / 4) * 12, 120));
    const boxes = placeLabels(crowd, bounds);
    expect(boxes).toHaveLength(16);
    expect(placeLabels(crowd, bounds)).toEqual(boxes);
    expect(placeLabels([], bounds)).toEqual([]);
  });
});
