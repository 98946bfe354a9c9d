import type { ViewFrame } from '../../../../shared/games/tag/client/clientView';
import { DEFAULT_ARENA } from '../../../../shared/games/tag/rules';
import type { Arena } from '../../../../shared/games/tag/types';
import { paintArenaBackground } from './arenaBackground';
import { backingSize, fitArena, type ArenaTransform } from '../../game/arenaTransform';
import { drawPlayers } from './drawPlayers';
import type { FrameRenderer } from '../../game/gameRenderer';
import type { PlayerLook } from '../../game/playerLook';

/** Free space around the arena, CSS pixels. */
const MARGIN = 4;

/** Draws tag frames onto one canvas: the cached arena background, then the players. */
export class ArenaRenderer implements FrameRenderer<ViewFrame> {
  private readonly ctx: CanvasRenderingContext2D;
  private readonly background: HTMLCanvasElement;
  private transform: ArenaTransform = { scale: 0, offsetX: 0, offsetY: 0 };
  private ratio = 1;
  private cssSize = { width: 0, height: 0, dpr: 0 };

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly arena: Arena = DEFAULT_ARENA,
  ) {
    const ctx = canvas.getContext('2d', { alpha: false });
    if (ctx === null) throw new Error('this browser cannot draw on a 2D canvas');
    this.ctx = ctx;
    this.background = document.createElement('canvas');
  }

  /** The current world→canvas mapping. */
  get view(): ArenaTransform {
    return this.transform;
  }

  /** Matches the backing store to the displayed size; repaints the cached background only when it changed. */
  resize(cssWidth: number, cssHeight: number, devicePixelRatio: number): void {
    const c = this.cssSize;
    if (c.width === cssWidth && c.height === cssHeight && c.dpr === devicePixelRatio) return;
    this.cssSize = { width: cssWidth, height: cssHeight, dpr: devicePixelRatio };
    const size = backingSize(cssWidth, cssHeight, devicePixelRatio);
    this.ratio = size.ratio;
    this.canvas.width = this.background.width = size.width;
    this.canvas.height = this.background.height = size.height;
    this.transform = fitArena(this.arena.width, this.arena.height, size.width, size.height, MARGIN * size.ratio);
    // CSS pixels per arena unit, for tests and diagnostics (the players' drawn size follows from it).
    this.canvas.dataset.scale = (this.transform.scale / size.ratio).toFixed(4);
    this.canvas.dataset.backing = `${size.width}x${size.height}`;
    const bg = this.background.getContext('2d', { alpha: false });
    if (bg !== null) paintArenaBackground(bg, this.arena, this.transform, this.ratio);
  }

  /** Draws one frame (`null`: the empty arena, waiting for the game). `time` in seconds drives animations. */
  draw(frame: ViewFrame | null, look: (id: string) => PlayerLook, time: number): void {
    this.ctx.drawImage(this.background, 0, 0);
    if (frame !== null) drawPlayers(this.ctx, frame.players, look, this.transform, this.ratio, time);
  }
}
