import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { lineMatching } from './lineMatching';
import type { NatLab } from './natLab';

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
  // Its network is named in full: it listens on `at:port` (--bind says the same address), an address inside the
  // lab's namespace, and runs no LAN discovery; it only ever answers the lab's peers.
  const at = lab.addresses[player]!;
  const child = lab.spawnIn(player, 'env', [
    `LAN_PARTY_TURN_SECRET=${lab.turn.secret}`,
    process.execPath,
    '--import',
    'tsx',
    HOST_CLI,
    '--rendezvous',
    `${at}:${port}`,
    '--bind',
    at,
    '--no-discovery',
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
