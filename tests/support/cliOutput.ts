import type { ChildProcess } from 'node:child_process';

/** A CLI's output as a lab reads it: everything printed so far, and waits for a line. */
export interface CliOutput {
  text(): string;
  /** The first match of `pattern` after the first `after` characters; throws when the CLI exits or time runs out. */
  line(pattern: RegExp, after?: number, timeoutMs?: number): Promise<RegExpMatchArray>;
}

/** Collects `child`'s stdout and stderr from now on (a lab's host CLI), for {@link CliOutput.line} to search. */
export function watchOutput(child: ChildProcess): CliOutput {
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return {
    text: () => out,
    async line(pattern, after = 0, timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = out.slice(after).match(pattern);
        if (match) return match;
        if (child.exitCode !== null) throw new Error(`the CLI exited (${child.exitCode}):\n${out}`);
        if (Date.now() > deadline) throw new Error(`no line matching ${pattern} in:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** Ctrl-C to `child`; resolves with its exit code, or the name of the signal that killed it. */
export async function interrupt(child: ChildProcess): Promise<number | NodeJS.Signals> {
  const exited = new Promise<number | NodeJS.Signals>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal!)),
  );
  child.kill('SIGINT');
  return exited;
}
