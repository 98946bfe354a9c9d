/**
 * How long after the first signal another one counts as the same Ctrl-C. A terminal sends SIGINT to the whole
 * process group, and a parent that forwards it as well (npm run does, tsx did) delivers it again within
 * milliseconds; a person pressing Ctrl-C twice takes longer than this.
 */
export const RELAYED_SIGNAL_MS = 1000;

/** What {@link closeOnSignal} needs of the process; tests pass a fake. */
export interface SignalProcess {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  exit(code: number): void;
  readonly stderr: { write(text: string): unknown };
}

/**
 * Resolves with an exit code once SIGINT or SIGTERM has run `close`: 0 when it closed cleanly, 1 when it
 * failed. A second signal while closing exits at once with 1 (the user asked twice), unless it came within
 * {@link RELAYED_SIGNAL_MS} of the first: then it is the same Ctrl-C relayed by a parent, and is ignored.
 */
export function closeOnSignal(
  program: string,
  close: (signal: NodeJS.Signals) => Promise<void>,
  proc: SignalProcess = process,
  now: () => number = () => performance.now(),
): Promise<number> {
  return new Promise((resolve) => {
    let firstAt: number | null = null;
    const stop = (signal: NodeJS.Signals): void => {
      if (firstAt !== null) {
        if (now() - firstAt < RELAYED_SIGNAL_MS) return;
        proc.stderr.write(`${program}: ${signal} again, exiting without waiting\n`);
        proc.exit(1);
        return;
      }
      firstAt = now();
      close(signal).then(
        () => resolve(0),
        (error: unknown) => {
          proc.stderr.write(`${program}: error while closing: ${(error as Error).message}\n`);
          resolve(1);
        },
      );
    };
    proc.on('SIGINT', stop);
    proc.on('SIGTERM', stop);
  });
}

/** Runs a CLI's `main`, turning its result into the exit code and a crash into a message and exit code 1. */
export function runCli(program: string, main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
      // Everything is closed by now; should a stray handle linger, do not hang the terminal over it.
      setTimeout(() => process.exit(code), 2000).unref();
    },
    (error: unknown) => {
      process.stderr.write(`${program}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
