import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { NatLab } from './natLab';

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

const HOST_CLI = fileURLToPath(new URL('../../main/cli/hostCli.ts', import.meta.url));

/**
 * The self-hosted rendezvous (the host CLI's --rendezvous mode, minting credentials for the lab's coturn) in
 * `player`'s public namespace on `port`; resolves with the process and its URL once it is listening.
 */
export async function startLabRendezvous(
  lab: NatLab,
  player: string,
  port: number,
): Promise<{ child: ChildProcess; url: string }> {
  const at = lab.addresses[player]!;
  const child = lab.spawnIn(player, 'env', [
    `LAN_PARTY_TURN_SECRET=${lab.turn.secret}`,
    process.execPath,
    '--import',
    'tsx',
    HOST_CLI,
    '--rendezvous',
    `${at}:${port}`,
    '--turn-url',
    `turn:${lab.turn.host}:${lab.turn.port}`,
  ]);
  try {
    await lineMatching(child, /rendezvous/i, 20_000);
  } catch (error) {
    if (child.exitCode === null) child.kill('SIGKILL');
    throw error;
  }
  return { child, url: `ws://${at}:${port}/rendezvous/v1` };
}
