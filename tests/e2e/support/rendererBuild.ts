import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The production renderer build the browser tests load. */
export const RENDERER_DIST = resolve(__dirname, '../../../dist/renderer');

/** Throws a clear instruction when the production build is missing. */
export function assertRendererBuilt(dir: string = RENDERER_DIST): void {
  if (!existsSync(join(dir, 'index.html'))) {
    throw new Error(
      `Browser tests need the production renderer, but ${join(dir, 'index.html')} is missing. ` +
        'Run `npm run build` (npm test does this for you) and try again.',
    );
  }
}
