/**
 * Resolves with an exit code once SIGINT or SIGTERM has run `close`: 0 when it closed cleanly, 1 when it
 * failed. A second signal while closing exits at once with 1 (the user asked twice).
 */
export function closeOnSignal(program: string, close: (signal: NodeJS.Signals) => Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    let closing = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (closing) {
        process.stderr.write(`${program}: ${signal} again, exiting without waiting\n`);
        process.exit(1);
      }
      closing = true;
      close(signal).then(
        () => resolve(0),
        (error: unknown) => {
          process.stderr.write(`${program}: error while closing: ${(error as Error).message}\n`);
          resolve(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
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
