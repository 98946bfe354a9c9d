import { fileURLToPath } from 'node:url';

/**
 * The environment that preloads sigintProbe.cjs into a CLI under test (keeping any NODE_OPTIONS already set): each
 * write to its stdout says on stderr how many SIGINT listeners the process had then. A reader woken by a line may run
 * before the CLI does again, so a listener added after the line that invites Ctrl-C comes too late: Node's default
 * then kills the process.
 */
export function sigintProbeEnv(): NodeJS.ProcessEnv {
  const probe = fileURLToPath(new URL('./sigintProbe.cjs', import.meta.url));
  return { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${probe}`.trim() };
}

/** The SIGINT listeners the probe saw when a write beginning with `line` went out; undefined when none did. */
export function sigintListenersAt(stderr: string, line: string): number | undefined {
  for (const report of stderr.split('\n')) {
    const found = /^\[sigint-probe\] (\d+) at: (.*)$/.exec(report);
    if (found?.[2] === line) return Number(found[1]);
  }
  return undefined;
}
