import type { Arena, Rect } from './types';

/** A circle's centre and velocity while collisions are being resolved. */
export interface MovingCircle {
  x: number;
  y: number;
  vx: number;
  vy: number;
}

function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}

/** Removes the velocity component pointing into a surface with outward normal (nx, ny). */
function stopIntoSurface(c: MovingCircle, nx: number, ny: number): void {
  const into = c.vx * nx + c.vy * ny;
  if (into < 0) {
    c.vx -= into * nx;
    c.vy -= into * ny;
  }
}

/** Whether a circle overlaps a rectangle (touching counts as not overlapping). */
export function circleOverlapsRect(x: number, y: number, radius: number, rect: Rect): boolean {
  const dx = x - clamp(x, rect.x, rect.x + rect.width);
  const dy = y - clamp(y, rect.y, rect.y + rect.height);
  return dx * dx + dy * dy < radius * radius;
}

/** Pushes a circle out of a rectangle along the shortest way and stops its motion into it. Mutates `c`. */
export function resolveCircleRect(c: MovingCircle, radius: number, rect: Rect): void {
  const dx = c.x - clamp(c.x, rect.x, rect.x + rect.width);
  const dy = c.y - clamp(c.y, rect.y, rect.y + rect.height);
  const distanceSquared = dx * dx + dy * dy;
  if (distanceSquared >= radius * radius) return;
  if (distanceSquared > 0) {
    const distance = Math.sqrt(distanceSquared);
    const nx = dx / distance;
    const ny = dy / distance;
    c.x += nx * (radius - distance);
    c.y += ny * (radius - distance);
    stopIntoSurface(c, nx, ny);
    return;
  }
  // Centre inside the rectangle: leave through the nearest edge.
  const exits = [
    { depth: c.x - rect.x, nx: -1, ny: 0 },
    { depth: rect.x + rect.width - c.x, nx: 1, ny: 0 },
    { depth: c.y - rect.y, nx: 0, ny: -1 },
    { depth: rect.y + rect.height - c.y, nx: 0, ny: 1 },
  ];
  let best = exits[0] as (typeof exits)[number];
  for (const exit of exits) if (exit.depth < best.depth) best = exit;
  c.x += best.nx * (best.depth + radius);
  c.y += best.ny * (best.depth + radius);
  stopIntoSurface(c, best.nx, best.ny);
}

/** Keeps a circle inside the arena walls and stops its motion into them. Mutates `c`. */
export function clampToArena(c: MovingCircle, radius: number, arena: Arena): void {
  if (c.x < radius) {
    c.x = radius;
    if (c.vx < 0) c.vx = 0;
  } else if (c.x > arena.width - radius) {
    c.x = arena.width - radius;
    if (c.vx > 0) c.vx = 0;
  }
  if (c.y < radius) {
    c.y = radius;
    if (c.vy < 0) c.vy = 0;
  } else if (c.y > arena.height - radius) {
    c.y = arena.height - radius;
    if (c.vy > 0) c.vy = 0;
  }
}
