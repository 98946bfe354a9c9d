import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, resolve } from 'node:path';
import type { WorkerOptions } from 'node:worker_threads';

/**
 * How to start the worker entry `name` that sits beside this module: the `.js` file when this code runs bundled
 * (the bench bundle ships `conditionerWorker.js` next to itself), else the `.ts` source through tsx. Node 20 will
 * not load a `.ts` file as a worker's main script even with tsx's hooks inherited, and vitest's workers have no
 * hooks at all, so a one-line CommonJS bootstrap registers tsx's require hook and then requires the source.
 */
export function workerScript(name: string): { filename: string; options: WorkerOptions } {
  const ext = extname(__filename);
  const file = resolve(__dirname, name + ext);
  if (!existsSync(file)) {
    throw new Error(`worker script ${file} is missing (a bundle must ship ${name}${ext} beside ${__filename})`);
  }
  if (ext !== '.ts') return { filename: file, options: {} };
  const tsx = createRequire(__filename).resolve('tsx/cjs');
  return {
    filename: `require(${JSON.stringify(tsx)});\nrequire(${JSON.stringify(file)});`,
    options: { eval: true },
  };
}
