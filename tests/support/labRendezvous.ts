import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lineMatching } from './lineMatching';
import type { NatLab } from './natLab';
import { scriptArgs } from './scriptArgs';

const HOST_CLI = fileURLToPath(new URL('../../main/cli/hostCli.ts', import.meta.url));

/**
 * The self-hosted rendezvous (the host CLI's --rendezvous mode, minting credentials for the lab's coturn) in
 * `player`'s public namespace on `port`; resolves with the process and its URL once it is listening. With
 * `serviceKeyFile` it runs as a deployment would (`--service-key-file`): rooms keep their owners across restarts.
 */
export async function startLabRendezvous(
  lab: NatLab,
  player: string,
  port: number,
  options: { readonly serviceKeyFile?: string } = {},
): Promise<{ child: ChildProcess; url: string }> {
  // Its network, named in full: no loopback here, by design. It listens on `at:port` (--bind says the same address),
  // an address inside the lab's own public namespace (203.0.113.0/24, a documentation range that exists only there),
  // where the lab's players reach it; it runs no LAN discovery, and it hands out only the lab's coturn.
  const at = lab.addresses[player];
  if (at === undefined || !at.startsWith('203.0.113.')) {
    throw new Error(`the rendezvous runs on the lab's public side: ${player} is at ${at ?? 'no address'}`);
  }
  const network = [
    '--rendezvous',
    `${at}:${port}`,
    '--bind',
    at,
    '--no-discovery',
    '--turn-url',
    `turn:${lab.turn.host}:${lab.turn.port}`,
    ...(options.serviceKeyFile !== undefined ? ['--service-key-file', options.serviceKeyFile] : []),
  ];
  // Without a key file its default data folder is a fresh temporary one (never root's home): a new key per start.
  const data = mkdtempSync(join(tmpdir(), 'lp-lab-rdv-'));
  const child = lab.spawnIn(player, 'env', [
    `LAN_PARTY_TURN_SECRET=${lab.turn.secret}`,
    `XDG_DATA_HOME=${data}`,
    process.execPath,
    ...scriptArgs(HOST_CLI),
    ...network,
  ]);
  // Removed whichever way the service ends (the test kills it, or the lab's teardown does).
  child.once('close', () => rmSync(data, { recursive: true, force: true }));
  try {
    await lineMatching(child, /rendezvous/i, 20_000);
  } catch (error) {
    if (child.exitCode === null) child.kill('SIGKILL');
    throw error;
  }
  return { child, url: `ws://${at}:${port}/rendezvous/v1` };
}
