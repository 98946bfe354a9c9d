import type { FrameRenderer } from './gameRenderer';
import type { PlayerLook } from './playerLook';
import { probeFrame } from './frameProbe';

/** What the loop draws from (a GameSession, or the benchmark's feed); `C` controls, `F` frame. */
export interface FrameSource<C, F> {
  frame(now: number, controls: C): F | null;
  look(id: string): PlayerLook;
  /** How far in the past the last frame drew the other players, seconds (the key-to-pixel bench's probe). */
  readonly interpolationDelay?: number;
}

/** Options of {@link startRenderLoop}. */
export interface RenderLoopOptions<C, F> {
  readonly canvas: HTMLCanvasElement;
  readonly source: FrameSource<C, F>;
  readonly controls: { take(): C };
  /** The game's renderer for `canvas` (GameRendererModule.createRenderer). */
  readonly renderer: FrameRenderer<F>;
  /** Seconds; default performance.now()/1000. */
  readonly clock?: () => number;
  /** Called after each frame with the milliseconds the frame's work took (benchmarks, diagnostics). */
  readonly onFrame?: (workMs: number) => void;
}

/** A running loop. */
export interface RenderLoop<F> {
  readonly renderer: FrameRenderer<F>;
  stop(): void;
}

/**
 * Draws at display rate with requestAnimationFrame, outside React: each frame takes the controls, lets the source
 * advance (prediction, inputs) and sample, and has the game's renderer draw. The canvas follows its element's size
 * (ResizeObserver).
 */
export function startRenderLoop<C, F>(options: RenderLoopOptions<C, F>): RenderLoop<F> {
  const { canvas, source, controls, renderer } = options;
  const clock = options.clock ?? (() => performance.now() / 1000);
  const size = { width: canvas.clientWidth || canvas.width, height: canvas.clientHeight || canvas.height };
  const observer =
    typeof ResizeObserver === 'function'
      ? new ResizeObserver((entries) => {
          const box = entries[0]?.contentRect;
          if (box !== undefined) [size.width, size.height] = [box.width, box.height];
        })
      : null;
  observer?.observe(canvas);
  const look = (id: string): PlayerLook => source.look(id);
  let handle = 0;
  let running = true;
  const tick = (): void => {
    if (!running) return;
    const start = performance.now();
    renderer.resize(size.width, size.height, window.devicePixelRatio || 1);
    const now = clock();
    const frame = source.frame(now, controls.take());
    renderer.draw(frame, look, now);
    probeFrame(now, frame, source.interpolationDelay);
    options.onFrame?.(performance.now() - start);
    handle = requestAnimationFrame(tick);
  };
  handle = requestAnimationFrame(tick);
  return {
    renderer,
    stop() {
      running = false;
      cancelAnimationFrame(handle);
      observer?.disconnect();
    },
  };
}
