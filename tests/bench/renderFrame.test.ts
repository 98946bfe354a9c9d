import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { GLOBAL, buildBundle } from '../../bench/renderFrame';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('the render benchmark bundle', () => {
  it('loads where there is no Node (no process), exposing run() on its global', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lan-party-render-bench-test-'));
    dirs.push(dir);
    const code = await readFile(await buildBundle(dir), 'utf8');
    // A bare context, like the page's: a reference to process (or anything Node) at load time throws here.
    const context: Record<string, unknown> = {};
    runInNewContext(code, context);
    expect(typeof (context[GLOBAL] as { run?: unknown } | undefined)?.run).toBe('function');
  }, 60_000);
});
