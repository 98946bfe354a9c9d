import type { ReactNode } from 'react';
import type { GameDefinition, GameInput, Point } from '../../../shared/games/gameDefinition';
import type { PlayerLook } from './playerLook';

/** Draws one game's frames onto one canvas; the render loop calls it every display frame. */
export interface FrameRenderer<F> {
  /** Matches the canvas to its displayed size (CSS pixels and device pixel ratio); cheap when unchanged. */
  resize(cssWidth: number, cssHeight: number, devicePixelRatio: number): void;
  /** Draws one frame (`null`: nothing to show yet). `time` in seconds drives animations. */
  draw(frame: F | null, look: (id: string) => PlayerLook, time: number): void;
}

/**
 * One game's side of the renderer, registered under its definition's id in renderer/src/games/registry.ts: what
 * the generic game stage needs to draw, steer and explain it. `C` controls, `F` view frame, `H` HUD state. The
 * callbacks are methods so a module typed with its own game fits the registry's `GameRendererModule`.
 */
export interface GameRendererModule<C = unknown, F = unknown, H = unknown> {
  /** The definition's id. */
  readonly id: string;
  /** The shared definition it draws: its client view (what the session runs), controls and results wording. */
  readonly game: Pick<
    GameDefinition<unknown, GameInput, object, unknown, C, F>,
    'id' | 'name' | 'createView' | 'controls' | 'results'
  >;
  createRenderer(canvas: HTMLCanvasElement): FrameRenderer<F>;
  /** The HUD for a frame (`null` before the first snapshot), computed a few times a second. */
  hud(frame: F | null, look: (id: string) => PlayerLook): H;
  /** Whether two HUD states render the same, so React re-renders only on real changes. */
  sameHud(a: H, b: H): boolean;
  /** Where the local player is drawn (the stage publishes it for tests and diagnostics), if anywhere. */
  selfPosition(frame: F | null): Point | undefined;
  /** The bar above the canvas. */
  renderHud(hud: H): ReactNode;
  /** The panel beside the canvas, above the net graph (e.g. the scoreboard). */
  renderSide(hud: H): ReactNode;
  /** What the game shows over the arena for this HUD state (tag: the round's 3-2-1), if anything. */
  renderOverlay?(hud: H): ReactNode;
  /** The controls help text. */
  renderHelp(): ReactNode;
}
