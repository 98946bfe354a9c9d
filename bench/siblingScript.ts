import type { ForkOptions } from 'node:child_process';
import { extname, resolve } from 'node:path';

/**
 * Arguments to `fork` a second benchmark process from the script beside this one: the bundled `.js`
 * when the benchmarks run bundled (as `npm run bench` does, so they measure the code as it ships),
 * else the `.ts` source through tsx.
 */
export function siblingScript(name: string): [string, string[], ForkOptions] {
  const ext = extname(__filename);
  const execArgv = ext === '.ts' ? ['--import', 'tsx'] : [];
  return [resolve(__dirname, name + ext), [], { execArgv, stdio: 'inherit' }];
}
