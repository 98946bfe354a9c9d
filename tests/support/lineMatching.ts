import type { ChildProcess } from 'node:child_process';

/** The first stdout/stderr line of `child` matching `pattern`; rejects after `timeoutMs` or when it exits first. */
export function lineMatching(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern}: ${seen.slice(-2000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      for (const line of seen.split('\n')) {
        const match = line.match(pattern);
        if (match) {
          clearTimeout(timer);
          resolve(match);
          return;
        }
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited (${code}) before ${pattern}: ${seen.slice(-2000)}`)));
  });
}
