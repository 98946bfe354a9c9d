import type { CyclesFrame, ViewCycle } from '../../../../shared/games/light-cycles/clientView';
import { backingSize, fitArena, toCanvasX, toCanvasY, type ArenaTransform } from '../../game/arenaTransform';
import { safeColour } from '../../game/colour';
import type { FrameRenderer } from '../../game/gameRenderer';
import type { PlayerLook } from '../../game/playerLook';

/** Free space around the grid, CSS pixels. */
const MARGIN = 6;
const BACKGROUND = '#070912';
const GRID_LINE = 'rgba(120, 140, 220, 0.10)';
const GRID_MAJOR = 'rgba(120, 140, 220, 0.22)';
const WALL = '#7f8cff';

/**
 * Draws light-cycles frames: the grid with its wall, then each trail as a glowing line in its rider's colour (a
 * crashed rider's dimmed, with a cross where it hit), each head as a bright square with the rider's name beside it;
 * the local rider's head gets a white ring, so colours alone never have to tell who is who.
 */
export class GridRenderer implements FrameRenderer<CyclesFrame> {
  private readonly ctx: CanvasRenderingContext2D;
  private transform: ArenaTransform = { scale: 0, offsetX: 0, offsetY: 0 };
  private ratio = 1;
  private size = { width: 0, height: 0, dpr: 0 };

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly grid: { readonly width: number; readonly height: number },
  ) {
    const ctx = canvas.getContext('2d', { alpha: false });
    if (ctx === null) throw new Error('this browser cannot draw on a 2D canvas');
    this.ctx = ctx;
  }

  resize(cssWidth: number, cssHeight: number, devicePixelRatio: number): void {
    const s = this.size;
    if (s.width === cssWidth && s.height === cssHeight && s.dpr === devicePixelRatio) return;
    this.size = { width: cssWidth, height: cssHeight, dpr: devicePixelRatio };
    const backing = backingSize(cssWidth, cssHeight, devicePixelRatio);
    this.ratio = backing.ratio;
    this.canvas.width = backing.width;
    this.canvas.height = backing.height;
    const { width, height } = this.grid;
    this.transform = fitArena(width, height, backing.width, backing.height, MARGIN * backing.ratio);
    this.canvas.dataset.scale = (this.transform.scale / backing.ratio).toFixed(4);
  }

  draw(frame: CyclesFrame | null, look: (id: string) => PlayerLook): void {
    const { ctx } = this;
    ctx.fillStyle = BACKGROUND;
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    this.drawGrid();
    if (frame === null) return;
    const ordered = [...frame.cycles].sort(
      (a, b) => Number(a.alive) - Number(b.alive) || Number(a.self) - Number(b.self),
    );
    for (const cycle of ordered) this.drawTrail(cycle, safeColour(look(cycle.id).colour));
    for (const cycle of ordered) this.drawHead(cycle, look(cycle.id));
  }

  private x(cellX: number): number {
    return toCanvasX(this.transform, cellX + 0.5);
  }

  private y(cellY: number): number {
    return toCanvasY(this.transform, cellY + 0.5);
  }

  private drawGrid(): void {
    const { ctx, transform: t, grid } = this;
    const left = t.offsetX;
    const top = t.offsetY;
    const right = left + grid.width * t.scale;
    const bottom = top + grid.height * t.scale;
    ctx.lineWidth = Math.max(1, this.ratio * 0.5);
    for (let i = 1; i < grid.width; i++) {
      ctx.strokeStyle = i % 8 === 0 ? GRID_MAJOR : GRID_LINE;
      ctx.beginPath();
      ctx.moveTo(left + i * t.scale, top);
      ctx.lineTo(left + i * t.scale, bottom);
      ctx.stroke();
    }
    for (let j = 1; j < grid.height; j++) {
      ctx.strokeStyle = j % 6 === 0 ? GRID_MAJOR : GRID_LINE;
      ctx.beginPath();
      ctx.moveTo(left, top + j * t.scale);
      ctx.lineTo(right, top + j * t.scale);
      ctx.stroke();
    }
    ctx.strokeStyle = WALL;
    ctx.lineWidth = 2 * this.ratio;
    ctx.strokeRect(left, top, right - left, bottom - top);
  }

  private drawTrail(cycle: ViewCycle, colour: string): void {
    const { ctx } = this;
    ctx.save();
    ctx.globalAlpha = cycle.alive ? 1 : 0.45;
    ctx.strokeStyle = colour;
    ctx.lineWidth = Math.max(2, this.transform.scale * 0.45);
    ctx.lineCap = 'square';
    ctx.lineJoin = 'miter';
    if (cycle.alive) {
      ctx.shadowColor = colour;
      ctx.shadowBlur = 8 * this.ratio;
    }
    for (const run of cycle.trail) {
      if (run.length < 2) continue;
      ctx.beginPath();
      ctx.moveTo(this.x(run[0]!.x), this.y(run[0]!.y));
      for (const point of run.slice(1)) ctx.lineTo(this.x(point.x), this.y(point.y));
      ctx.stroke();
    }
    ctx.restore();
  }

  private drawHead(cycle: ViewCycle, look: PlayerLook): void {
    const { ctx } = this;
    const cx = this.x(cycle.x);
    const cy = this.y(cycle.y);
    const half = Math.max(3, this.transform.scale * 0.55);
    const colour = safeColour(look.colour);
    if (cycle.alive) {
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(cx - half, cy - half, 2 * half, 2 * half);
      ctx.fillStyle = colour;
      ctx.fillRect(cx - half * 0.6, cy - half * 0.6, 1.2 * half, 1.2 * half);
    } else {
      ctx.strokeStyle = '#ff5a6e';
      ctx.lineWidth = 3 * this.ratio;
      ctx.beginPath();
      ctx.moveTo(cx - half, cy - half);
      ctx.lineTo(cx + half, cy + half);
      ctx.moveTo(cx + half, cy - half);
      ctx.lineTo(cx - half, cy + half);
      ctx.stroke();
    }
    if (cycle.self) {
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 2 * this.ratio;
      ctx.beginPath();
      ctx.arc(cx, cy, half * 2.1, 0, Math.PI * 2);
      ctx.stroke();
    }
    // Above the head, unless the trail comes from above (riding down): then below, so the label never hides it.
    const below = cycle.heading === 2;
    const text = cycle.self ? `${look.name} (you)` : look.name;
    this.drawLabel(text, cx, below ? cy + half * 2.6 + 13 * this.ratio : cy - half * 2.6, cycle.alive);
  }

  private drawLabel(text: string, x: number, y: number, alive: boolean): void {
    const { ctx } = this;
    const size = Math.round(13 * this.ratio);
    ctx.font = `600 ${size}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    const width = ctx.measureText(text).width;
    // Kept inside the canvas, so a rider near the edge is still named.
    const left = Math.min(Math.max(x, width / 2 + 4), this.canvas.width - width / 2 - 4);
    const top = Math.min(Math.max(y, size + 4), this.canvas.height - 4);
    ctx.fillStyle = 'rgba(7, 9, 18, 0.75)';
    ctx.fillRect(left - width / 2 - 4, top - size - 2, width + 8, size + 4);
    ctx.fillStyle = alive ? '#ffffff' : '#b7bdd8';
    ctx.fillText(text, left, top);
  }
}
