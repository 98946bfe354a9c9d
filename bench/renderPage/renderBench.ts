import type { ClientControls, ViewFrame } from '../../shared/games/tag/client/clientView';
import type { GameApi } from '../../renderer/src/game/gameApi';
import { GameSession } from '../../renderer/src/game/gameSession';
import { fallbackLook } from '../../renderer/src/game/playerLook';
import { startRenderLoop, type FrameSource } from '../../renderer/src/game/renderLoop';
import { tagRenderer } from '../../renderer/src/games/tag/tagRenderer';
import { syntheticRoster, syntheticSnapshot } from './syntheticFeed';

/** Options of {@link run}. */
export interface RenderBenchOptions {
  /** Players in the synthetic game; 0 measures the empty arena loop (the baseline). */
  readonly players: number;
  /** Frames measured, after `warmup` frames not measured. */
  readonly frames: number;
  readonly warmup: number;
}

/** Per frame: the work inside the requestAnimationFrame callback (raster forced) and the time since the last. */
export interface RenderBenchResult {
  readonly workMs: number[];
  readonly intervalMs: number[];
}

/** A backend stand-in: snapshots of the synthetic round every 2nd tick (30 Hz), inputs acknowledged at once. */
function syntheticApi(players: number): { api: GameApi; stop(): void } {
  let lastSequence = -1;
  const snapshotListeners = new Set<(e: { game: number; snapshot: ReturnType<typeof syntheticSnapshot> }) => void>();
  const roster = { game: 1, players: syntheticRoster(players) };
  const api: GameApi = {
    'game.get': async () => ({ you: '0', roster, results: null }),
    'game.input': async ({ inputs }) => {
      lastSequence = inputs[inputs.length - 1]?.sequence ?? lastSequence;
      return { accepted: true };
    },
    'net.stats': async () => ({ role: null, links: [], conditioner: null, snapshotsPerSecond: null }),
    onGameRoster: () => () => undefined,
    onGameSnapshot: (cb) => {
      snapshotListeners.add(cb);
      return () => snapshotListeners.delete(cb);
    },
    onGameResults: () => () => undefined,
    onGameEnded: () => () => undefined,
  };
  const start = performance.now();
  const timer = setInterval(() => {
    const tick = Math.floor(((performance.now() - start) / 1000) * 60);
    const snapshot = syntheticSnapshot(tick, players, [lastSequence]);
    for (const cb of snapshotListeners) cb({ game: 1, snapshot });
  }, 1000 / 30);
  return { api, stop: () => clearInterval(timer) };
}

/** Steering that sweeps round, so the local player keeps moving and being corrected. */
function steering(frame: number): ClientControls {
  const a = frame / 50;
  return { moveX: Math.cos(a), moveY: Math.sin(a * 1.3), tag: frame % 90 === 0 };
}

/** Runs the real render loop with tag's renderer on `canvas` against a synthetic feed; reports per-frame times. */
export async function run(canvas: HTMLCanvasElement, options: RenderBenchOptions): Promise<RenderBenchResult> {
  const feed = syntheticApi(Math.max(1, options.players));
  let source: FrameSource<ClientControls, ViewFrame> = { frame: (): ViewFrame | null => null, look: fallbackLook };
  let session: GameSession<ClientControls, ViewFrame> | null = null;
  if (options.players > 0) {
    session = new GameSession({ game: tagRenderer.game, api: feed.api, you: '0', interpolationDelay: 0.1 });
    await session.start(() => performance.now() / 1000);
    source = session;
  }
  let frame = 0;
  const controls = { take: () => steering(frame) };
  const workMs: number[] = [];
  const intervalMs: number[] = [];
  let lastEnd = 0;
  await new Promise<void>((resolve) => {
    const loop = startRenderLoop({
      canvas,
      source,
      controls,
      renderer: tagRenderer.createRenderer(canvas),
      onFrame: (work) => {
        // Reading one pixel makes the canvas rasterize now, so its cost lands in this frame's time.
        const t0 = performance.now();
        canvas.getContext('2d')?.getImageData(0, 0, 1, 1);
        const end = performance.now();
        frame += 1;
        if (frame > options.warmup) {
          workMs.push(work + (end - t0));
          intervalMs.push(end - lastEnd);
        }
        lastEnd = end;
        if (workMs.length >= options.frames) {
          loop.stop();
          resolve();
        }
      },
    });
  });
  session?.dispose();
  feed.stop();
  return { workMs, intervalMs };
}
