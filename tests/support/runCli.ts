import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { scriptArgs } from './scriptArgs';

/** A CLI started by {@link runCli}. */
export interface RunningCli {
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  kill: (signal: NodeJS.Signals) => void;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs a TypeScript CLI of this repo as a real process, `node <scriptArgs>` (one process, so
 * signals reach the script itself); killed after `limitMs` so a hung CLI cannot hang the suite.
 */
export function runCli(script: string, args: string[], env: NodeJS.ProcessEnv = {}, limitMs = 25_000): RunningCli {
  const child = spawn(process.execPath, [...scriptArgs(script), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    }),
  );
  return { stdout: () => out, stderr: () => err, exited, kill: (signal) => child.kill(signal) };
}
