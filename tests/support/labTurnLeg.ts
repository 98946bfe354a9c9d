import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { lineMatching } from './lineMatching';
import { scriptArgs } from './scriptArgs';

const CONDITIONER_CLI = fileURLToPath(new URL('../../scripts/conditioner.ts', import.meta.url));

/** The TURN leg's delay: a link conditioner (scripts/conditioner.ts) that clients reach instead of the TURN server. */
export interface TurnLeg {
  readonly host: string;
  readonly port: number;
  /** Each direction's one-way delay, ms. */
  readonly latencyMs: number;
  /** Stops the conditioner (SIGTERM, then SIGKILL after 2 s); safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts the conditioner in the namespace `spawnIn` enters, listening on `listen` and relaying to `target` with
 * `latencyMs` each way. Mappings never idle out: a TURN allocation is bound to the conditioner's port towards the
 * server, so a mapping closed between rounds would strand the allocation.
 */
export async function startTurnLeg(options: {
  spawnIn: (command: string, args: readonly string[]) => ChildProcess;
  listen: { host: string; port: number };
  target: { host: string; port: number };
  latencyMs: number;
}): Promise<TurnLeg> {
  const { listen, target, latencyMs } = options;
  const child = options.spawnIn(process.execPath, [
    ...scriptArgs(CONDITIONER_CLI),
    '--listen',
    `${listen.host}:${listen.port}`,
    '--target',
    `${target.host}:${target.port}`,
    '--latency',
    String(latencyMs),
    '--idle-timeout',
    String(3_600_000),
    '--max-mappings',
    '256',
    '--allow-non-loopback',
  ]);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const late = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await gone;
      clearTimeout(late);
    })());
  try {
    await lineMatching(child, /^conditioner: listening on /, 20_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { host: listen.host, port: listen.port, latencyMs, stop };
}
