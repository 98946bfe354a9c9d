import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The static checks: each an npm script, so two at a time keep both cores busy (the machine CI runs on has two) and
 * they take about half as long as in a row. `npm test` runs them as the first tests (tests/scripts/checks.test.ts),
 * beside the unit tests, which mostly wait; `npm run checks` runs them alone. The type-checks run TypeScript 7's
 * native compiler (the `typescript7` alias): 18 s of CPU for the three projects against 45 s with 5.9's, which stays
 * for typescript-eslint (it reads the compiler's JavaScript API, which 7 does not have; its peer range ends below 6.1).
 */
export const CHECKS = ['typecheck:main', 'lint', 'typecheck:web', 'typecheck:shared', 'lint:deps'] as const;

/** How one check ended: its script, exit code, wall time and everything it printed. */
export interface CheckOutcome {
  readonly script: string;
  readonly code: number;
  readonly ms: number;
  readonly output: string;
}

/** Runs one npm script with its output captured (printed whole when it ends, so two checks never interleave). */
function runScript(script: string): Promise<CheckOutcome> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn('npm', ['run', '--silent', script], { shell: process.platform === 'win32' });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) =>
      done({ script, code: 1, ms: Date.now() - started, output: `${output}${error.message}\n` }),
    );
    child.on('close', (code) => done({ script, code: code ?? 1, ms: Date.now() - started, output }));
  });
}

/** Runs `scripts` `parallel` at a time, reporting each as it ends; resolves with every outcome, in the given order. */
export async function runChecks(
  scripts: readonly string[],
  parallel: number,
  run: (script: string) => Promise<CheckOutcome> = runScript,
  report: (outcome: CheckOutcome) => void = () => undefined,
): Promise<CheckOutcome[]> {
  const outcomes: CheckOutcome[] = new Array<CheckOutcome>(scripts.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < scripts.length) {
      const index = next++;
      const outcome = await run(scripts[index] as string);
      outcomes[index] = outcome;
      report(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, scripts.length)) }, worker));
  return outcomes;
}

function printOutcome(outcome: CheckOutcome): void {
  const verdict = outcome.code === 0 ? 'ok' : `FAILED (exit ${outcome.code})`;
  process.stdout.write(`\n── ${outcome.script}: ${verdict} in ${(outcome.ms / 1000).toFixed(1)} s\n`);
  if (outcome.code !== 0 || outcome.output.trim() !== '') process.stdout.write(outcome.output);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(__filename)) {
  void runChecks(CHECKS, 2, runScript, printOutcome).then((outcomes) => {
    const failed = outcomes.filter((outcome) => outcome.code !== 0).map((outcome) => outcome.script);
    if (failed.length > 0) process.stdout.write(`\nchecks failed: ${failed.join(', ')}\n`);
    process.exitCode = failed.length > 0 ? 1 : 0;
  });
}
