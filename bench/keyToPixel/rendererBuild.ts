import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

/** The repository's renderer: `npm run bench` bundles bench/ into dist-bench/, one level below the root. */
const RENDERER_ROOT = resolve(__dirname, '..', 'renderer');

/**
 * Builds the renderer as the app ships it (production, minified) into `outDir`, so the bench measures this tree
 * without needing `npm run build` first or overwriting its dist/.
 */
export async function buildRenderer(outDir: string): Promise<string> {
  await build({
    configFile: false,
    root: RENDERER_ROOT,
    base: './',
    logLevel: 'warn',
    mode: 'production',
    plugins: [react()],
    // The app's one chunk is over vite's 500 kB warning, as in `npm run build`: not news in a bench's output.
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 10_000 },
  });
  return outDir;
}
