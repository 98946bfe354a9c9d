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

/** Options of {@link closeOnSignal}; the process, clock and timer are injected for tests. */
export interface CloseOnSignalOptions {
  /**
   * A parent forwards the terminal's signal as well (npm run does): once closed, wait for that copy, at most
   * until {@link RELAYED_SIGNAL_MS} after the first, so it lands on this handler and not on a process that is
   * already exiting (which it would kill, turning exit code 0 into "killed by SIGINT").
   */
  readonly expectRelayedSignal?: boolean;
  readonly proc?: SignalProcess;
  readonly now?: () => number;
  /** Runs `task` after `ms`; returns the cancel. */
  readonly schedule?: (task: () => void, ms: number) => () => void;
}

/**
 * Resolves with an exit code once SIGINT or SIGTERM has run `close`: 0 when it closed cleanly, 1 when it
 * failed. A second signal while closing exits at once with 1 (the user asked twice), unless it came within
 * {@link RELAYED_SIGNAL_MS} of the first: then it is the same Ctrl-C relayed by a parent, and is ignored.
 */
export function closeOnSignal(
  program: string,
  close: (signal: NodeJS.Signals) => Promise<void>,
  options: CloseOnSignalOptions = {},
): Promise<number> {
  const proc = options.proc ?? process;
  const now = options.now ?? (() => performance.now());
  const schedule =
    options.schedule ??
    ((task: () => void, ms: number) => {
      const timer = setTimeout(task, ms);
      return () => clearTimeout(timer);
    });
  return new Promise((resolve) => {
    let firstAt: number | null = null;
    let relayed = false;
    let onRelay: (() => void) | null = null;
    const finish = (code: number): void => {
      const left = RELAYED_SIGNAL_MS - (now() - (firstAt ?? 0));
      if (!options.expectRelayedSignal || relayed || left <= 0) {
        resolve(code);
        return;
      }
      const cancel = schedule(() => resolve(code), left);
      onRelay = () => {
        cancel();
        resolve(code);
      };
    };
    const stop = (signal: NodeJS.Signals): void => {
      if (firstAt !== null) {
        if (now() - firstAt < RELAYED_SIGNAL_MS) {
          relayed = true;
          onRelay?.();
          return;
        }
        proc.stderr.write(`${program}: ${signal} again, exiting without waiting\n`);
        proc.exit(1);
        return;
      }
      firstAt = now();
      close(signal).then(
        () => finish(0),
        (error: unknown) => {
          proc.stderr.write(`${program}: error while closing: ${(error as Error).message}\n`);
          finish(1);
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
