import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECKS, runChecks, type CheckOutcome } from '../../scripts/checks';

const scripts = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')).scripts as Record<
  string,
  string
>;

describe('the static checks npm test runs', () => {
  it('are npm scripts, and together what the type-check, lint and dependency-rule scripts cover; the build comes first', () => {
    for (const script of CHECKS) expect(scripts[script], script).toBeDefined();
    // The build before the tests: the packaging and CSP tests read what it made, and the browser tests load it.
    expect(scripts.test).toBe('npm run build && vitest run');
    expect(scripts.typecheck).toBe(
      ['typecheck:main', 'typecheck:web', 'typecheck:shared'].map((s) => `npm run ${s}`).join(' && '),
    );
    // TypeScript 7's compiler by its path: the two installed TypeScripts both name a bin `tsc`.
    for (const [name, config] of [
      ['main', 'tsconfig.json'],
      ['web', 'tsconfig.web.json'],
      ['shared', 'tsconfig.shared.json'],
    ])
      expect(scripts[`typecheck:${name}`]).toBe(`node node_modules/typescript7/bin/tsc -p ${config}`);
    expect([...CHECKS].sort()).toEqual(
      ['lint', 'lint:deps', 'typecheck:main', 'typecheck:shared', 'typecheck:web'].sort(),
    );
  });

  it('run two at a time, report each as it ends, and keep every outcome (a failure does not hide the others)', async () => {
    let running = 0;
    let most = 0;
    const reported: string[] = [];
    const release: (() => void)[] = [];
    const run = (script: string) =>
      new Promise<CheckOutcome>((done) => {
        running += 1;
        most = Math.max(most, running);
        release.push(() => {
          running -= 1;
          done({ script, code: script === 'b' ? 2 : 0, ms: 1, output: `${script} said\n` });
        });
      });
    const finished = runChecks(['a', 'b', 'c', 'd'], 2, run, (outcome) => reported.push(outcome.script));
    // Let them end out of order: the second first.
    for (let i = 0; i < 20 && release.length < 2; i += 1) await Promise.resolve();
    expect(release).toHaveLength(2);
    release[1]!();
    for (let i = 0; i < 20 && release.length < 3; i += 1) await Promise.resolve();
    release[0]!();
    for (let i = 0; i < 20 && release.length < 4; i += 1) await Promise.resolve();
    release[2]!();
    release[3]!();
    const outcomes = await finished;
    expect(most).toBe(2);
    expect(reported).toEqual(['b', 'a', 'c', 'd']);
    expect(outcomes.map((o) => [o.script, o.code])).toEqual([
      ['a', 0],
      ['b', 2],
      ['c', 0],
      ['d', 0],
    ]);
  });
});

// The checks themselves, two at a time: in their own project ('checks', vitest.config.ts), so they start first and
// run beside the unit tests. A failing one fails its test with everything it printed.
describe('the static checks pass', () => {
  let outcomes: CheckOutcome[] = [];
  beforeAll(async () => {
    outcomes = await runChecks(CHECKS, 2);
  }, 600_000);

  it.each(CHECKS.map((script, index) => [script, index] as const))('%s', (script, index) => {
    const outcome = outcomes[index];
    expect(outcome?.script).toBe(script);
    expect(outcome?.code, outcome?.output).toBe(0);
  });
});
