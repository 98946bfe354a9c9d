import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Preloaded into a CLI under test (NODE_OPTIONS=--require): each write to its stdout says on stderr how many SIGINT
 * listeners the process had at that moment. A reader woken by a line may run before the CLI does again, so a
 * listener added after the line that invites Ctrl-C comes too late: Node's default then kills the process.
 */
const PROBE = `const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const first = String(chunk).split('\\n')[0];
  process.stderr.write('[sigint-probe] ' + process.listenerCount('SIGINT') + ' at: ' + first + '\\n');
  return write(chunk, ...rest);
};
`;

/** Writes the probe into `dir`; returns the environment that preloads it (keeping any NODE_OPTIONS already set). */
export async function sigintProbeEnv(dir: string): Promise<NodeJS.ProcessEnv> {
  const file = join(dir, 'sigint-probe.cjs');
  await writeFile(file, PROBE);
  return { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${file}`.trim() };
}

/** The SIGINT listeners the probe saw when a write beginning with `line` went out; undefined when none did. */
export function sigintListenersAt(stderr: string, line: string): number | undefined {
  for (const report of stderr.split('\n')) {
    const found = /^\[sigint-probe\] (\d+) at: (.*)$/.exec(report);
    if (found?.[2] === line) return Number(found[1]);
  }
  return undefined;
}
