import type { Arena } from '../../../../shared/games/tag/types';
import { toCanvasX, toCanvasY, type ArenaTransform } from '../../game/arenaTransform';

/** Arena look, in the launcher's navy-and-neon theme. */
export const ARENA_STYLE = {
  page: '#0b0d17',
  floor: '#121731',
  grid: 'rgba(255, 255, 255, 0.045)',
  border: 'rgba(139, 112, 255, 0.9)',
  obstacle: '#3a4380',
  obstacleEdge: 'rgba(180, 160, 255, 0.85)',
  obstacleTop: 'rgba(255, 255, 255, 0.18)',
} as const;

/** Grid spacing in arena units. */
const GRID = 100;

/**
 * Paints the static arena (floor, grid, walls, obstacles) into `ctx` once per canvas size; the render loop then
 * copies it each frame with one drawImage instead of redrawing dozens of paths.
 */
export function paintArenaBackground(
  ctx: CanvasRenderingContext2D,
  arena: Arena,
  t: ArenaTransform,
  ratio: number,
): void {
  const { width, height } = ctx.canvas;
  ctx.fillStyle = ARENA_STYLE.page;
  ctx.fillRect(0, 0, width, height);
  const x0 = toCanvasX(t, 0);
  const y0 = toCanvasY(t, 0);
  const w = arena.width * t.scale;
  const h = arena.height * t.scale;
  ctx.fillStyle = ARENA_STYLE.floor;
  ctx.fillRect(x0, y0, w, h);

  ctx.strokeStyle = ARENA_STYLE.grid;
  ctx.lineWidth = Math.max(1, ratio);
  ctx.beginPath();
  for (let gx = GRID; gx < arena.width; gx += GRID) {
    const x = Math.round(toCanvasX(t, gx)) + 0.5;
    ctx.moveTo(x, y0);
    ctx.lineTo(x, y0 + h);
  }
  for (let gy = GRID; gy < arena.height; gy += GRID) {
    const y = Math.round(toCanvasY(t, gy)) + 0.5;
    ctx.moveTo(x0, y);
    ctx.lineTo(x0 + w, y);
  }
  ctx.stroke();

  const radius = 6 * t.scale;
  for (const o of arena.obstacles) {
    const ox = toCanvasX(t, o.x);
    const oy = toCanvasY(t, o.y);
    const ow = o.width * t.scale;
    const oh = o.height * t.scale;
    ctx.beginPath();
    ctx.roundRect(ox, oy, ow, oh, radius);
    ctx.fillStyle = ARENA_STYLE.obstacle;
    ctx.fill();
    ctx.lineWidth = 1.5 * ratio;
    ctx.strokeStyle = ARENA_STYLE.obstacleEdge;
    ctx.stroke();
    ctx.fillStyle = ARENA_STYLE.obstacleTop;
    ctx.fillRect(ox + radius, oy + 2 * ratio, Math.max(0, ow - 2 * radius), 2 * ratio);
  }

  ctx.lineWidth = 2 * ratio;
  ctx.strokeStyle = ARENA_STYLE.border;
  ctx.strokeRect(x0, y0, w, h);
}
