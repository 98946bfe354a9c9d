import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT_DIR = join(ROOT, 'test-output', 'scripts');
const bundles = new Map<string, string>();
/** Programs that find files beside their own source: bundled into test-output they would look there. */
const FROM_SOURCE = new Set(
  ['scripts/devWeb.ts', 'scripts/dist.ts', 'scripts/signUpdate.ts', 'tests/support/workerConditionerRun.ts'].map(
    (script) => resolve(ROOT, script),
  ),
);

/**
 * The node arguments that run one of this repo's TypeScript programs (a CLI, a lab agent) as its own process: a
 * CommonJS bundle of it in test-output/scripts, node_modules left outside so they resolve from the project, built
 * once per test process. Started through `--import tsx` instead, each process cost ~1 s of CPU (over 20 s of wall
 * time on a busy machine) compiling and loading its modules one by one; a suite run spawns over a hundred. The few
 * programs that find files beside their own source still start through tsx.
 */
export function scriptArgs(script: string): string[] {
  const entry = resolve(ROOT, script);
  if (FROM_SOURCE.has(entry)) return ['--import', 'tsx', entry];
  let bundle = bundles.get(entry);
  if (bundle === undefined) {
    const [output] = buildSync({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      packages: 'external',
      write: false,
      logLevel: 'warning',
    }).outputFiles;
    // Named by content: test processes building the same program share one file, and a changed source gets a new one.
    const digest = createHash('sha256').update(output!.contents).digest('hex').slice(0, 16);
    bundle = join(OUT_DIR, `${basename(entry, '.ts')}-${digest}.cjs`);
    if (!existsSync(bundle)) {
      mkdirSync(OUT_DIR, { recursive: true });
      const partial = `${bundle}.${process.pid}`;
      writeFileSync(partial, output!.contents);
      renameSync(partial, bundle);
    }
    bundles.set(entry, bundle);
  }
  return [bundle];
}
