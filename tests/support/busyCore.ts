import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The spinner's own code, run with `node -e`. It spins in 50 ms slices and yields between them, so it sees its
 * parent go (the IPC channel closes: "disconnect") and its deadline pass; either ends it. A spinner can therefore
 * never outlive the run that started it by more than one slice, even when that run is killed.
 */
const SPINNER = `
const deadline = Date.now() + Number(process.argv[1]);
process.on('disconnect', () => process.exit(0));
const slice = () => {
  const until = Date.now() + 50;
  while (Date.now() < until) {}
  if (Date.now() >= deadline) process.exit(0);
  setImmediate(slice);
};
slice();
`;

/** One core held by a spinning child process (see {@link startBusyCore}). */
export interface BusyCore {
  readonly pid: number;
  /** Ends the spinner and resolves once it has exited. */
  stop(): Promise<void>;
}

/** Longest a spinner lives whoever forgets it: longer than any full run of the suite here. */
export const BUSY_CORE_LIMIT_MS = 45 * 60_000;

/**
 * Starts a child process that keeps one core busy until {@link BusyCore.stop}, its parent's exit or `limitMs`,
 * whichever comes first. It is unref'd, so it never keeps the parent alive either.
 */
export function startBusyCore(limitMs = BUSY_CORE_LIMIT_MS): BusyCore {
  const child: ChildProcess = spawn(process.execPath, ['-e', SPINNER, String(limitMs)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.unref();
  child.channel?.unref();
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  return {
    pid: child.pid ?? -1,
    async stop() {
      process.removeListener('exit', kill);
      if (child.exitCode === null && child.signalCode === null) kill();
      await exited;
    },
  };
}

/**
 * Which vitest projects run with a busy core, from `LAN_PARTY_BUSY`: unset, empty or `0` none; `1` or `all` every
 * project; otherwise a comma-separated list of project names (`lab,e2e`).
 */
export function busyProjects(value: string | undefined): 'all' | ReadonlySet<string> {
  const text = (value ?? '').trim();
  if (text === '' || text === '0') return new Set();
  if (text === '1' || text === 'all') return 'all';
  return new Set(
    text
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  );
}
