/** A box on the canvas: top-left corner and size, in any one unit (the renderer uses device pixels). */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** One label to place: the circle it names (centre, radius) and the label's size. */
export interface LabelRequest {
  readonly x: number;
  readonly y: number;
  readonly radius: number;
  readonly width: number;
  readonly height: number;
}

/** The sides tried, in order of preference: above reads best, then below, then beside, then the corners. */
const SIDES = [
  [0, -1],
  [0, 1],
  [1, 0],
  [-1, 0],
  [1, -1],
  [-1, -1],
  [1, 1],
  [-1, 1],
] as const;

function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

function candidate(r: LabelRequest, [sx, sy]: readonly [number, number], gap: number, bounds: Box): Box {
  const reach = r.radius + gap;
  // Centred on the circle along the axis it does not move on; beside it along the one it does.
  const cx = sx === 0 ? r.x : r.x + sx * (reach + r.width / 2);
  const cy = sy === 0 ? r.y : r.y + sy * (reach + r.height / 2);
  const x = Math.min(bounds.x + bounds.width - r.width, Math.max(bounds.x, cx - r.width / 2));
  const y = Math.min(bounds.y + bounds.height - r.height, Math.max(bounds.y, cy - r.height / 2));
  return { x, y, width: r.width, height: r.height };
}

/**
 * Where to put each circle's name label so labels cover neither each other nor any circle: requests are placed in
 * the order given (put the most important first: the local player, then "it"), each at the first side of its
 * circle (above, below, right, left, then the corners) that collides with nothing placed so far or any circle,
 * kept inside `bounds`. When every side collides, the side with the least overlapping area wins. `gap` is the
 * space between circle and label. Pure and deterministic; O(n²) for the handful of players a room has.
 */
export function placeLabels(requests: readonly LabelRequest[], bounds: Box, gap = 4): Box[] {
  const circles: Box[] = requests.map((r) => ({
    x: r.x - r.radius,
    y: r.y - r.radius,
    width: 2 * r.radius,
    height: 2 * r.radius,
  }));
  const placed: Box[] = [];
  for (const r of requests) {
    let best: Box | undefined;
    let bestCost = Infinity;
    for (const side of SIDES) {
      const box = candidate(r, side, gap, bounds);
      let cost = 0;
      for (const other of placed) cost += overlap(box, other);
      for (const circle of circles) cost += overlap(box, circle);
      if (cost < bestCost) [best, bestCost] = [box, cost];
      if (cost === 0) break;
    }
    placed.push(best!);
  }
  return placed;
}
