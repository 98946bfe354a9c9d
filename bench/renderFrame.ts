import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { launchChromium } from '../tests/e2e/support/chromium';
import type { BenchResult } from './benchResult';
import { percentile } from './percentile';

const ENTRY = resolve(__dirname, '../bench/renderPage/benchEntry.ts');
export const GLOBAL = 'LanPartyRenderBench';
const PLAYERS = 16;
const FRAMES = 600;
const WARMUP = 60;

interface PageResult {
  workMs: number[];
  intervalMs: number[];
}

/** Builds the benchmark bundle (the renderer's game modules, minified like the production build) as one IIFE. */
export async function buildBundle(outDir: string): Promise<string> {
  await build({
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    // Library mode leaves process.env.NODE_ENV in place (the app's build replaces it); the page has no process.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir,
      emptyOutDir: true,
      minify: true,
      lib: { entry: ENTRY, formats: ['iife'], name: GLOBAL, fileName: () => 'render-bench.js' },
    },
  });
  return join(outDir, 'render-bench.js');
}

/**
 * Render-loop frame time in headless Chromium: the real requestAnimationFrame loop (GameSession + ClientView +
 * canvas drawing, rasterization forced each frame) on a 1280×720 canvas fed 30 Hz synthetic snapshots of 16 moving
 * players, against the same loop drawing the empty arena. Goal: p99 ≤ 16.7 ms (one 60 Hz frame).
 */
export async function benchRenderFrame(): Promise<BenchResult[]> {
  const outDir = await mkdtemp(join(tmpdir(), 'lan-party-render-bench-'));
  const browser = await launchChromium();
  try {
    const script = await buildBundle(outDir);
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.setContent(
      '<!doctype html><html><body style="margin:0;background:#0b0d17">' +
        '<canvas id="c" style="display:block;width:1280px;height:720px"></canvas></body></html>',
    );
    const pageErrors: Error[] = [];
    page.on('pageerror', (error) => pageErrors.push(error));
    await page.addScriptTag({ path: script });
    if (pageErrors.length > 0) throw new Error(`the render bench bundle failed to load: ${pageErrors[0]!.message}`);
    // A string, so this Node-typed file needs no DOM types.
    const measure = (players: number) =>
      page.evaluate(
        `${GLOBAL}.run(document.getElementById('c'), { players: ${players}, frames: ${FRAMES}, warmup: ${WARMUP} })`,
      ) as Promise<PageResult>;
    const empty = await measure(0);
    const game = await measure(PLAYERS);
    return [
      {
        name: `frame time p50, ${PLAYERS} players`,
        value: percentile(game.workMs, 50),
        unit: 'ms',
        baseline: percentile(empty.workMs, 50),
      },
      {
        name: `frame time p99, ${PLAYERS} players (goal ≤ 16.7 ms)`,
        value: percentile(game.workMs, 99),
        unit: 'ms',
        baseline: percentile(empty.workMs, 99),
      },
      {
        name: `rAF interval p99, ${PLAYERS} players`,
        value: percentile(game.intervalMs, 99),
        unit: 'ms',
        baseline: percentile(empty.intervalMs, 99),
      },
    ];
  } finally {
    await browser.close();
    await rm(outDir, { recursive: true, force: true });
  }
}
