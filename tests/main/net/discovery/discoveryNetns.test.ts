import type { ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerInfo } from '../../../../main/net/discovery';
import { createNetnsLan, netnsUnavailableReason, type NetnsLan } from '../../../support/netns';
import { scriptArgs } from '../../../support/scriptArgs';

// A real LAN of network namespaces: host a (searcher) and b are on two subnets, c on the first only.
//   subnet X = 10.213.x.0/24: a=.1 b=.2 c=.3      subnet Y = 10.213.x+1.0/24: a=.1 b=.2
// Addresses exist only inside the namespaces this file creates and deletes.
const unavailable = netnsUnavailableReason();
if (unavailable) console.warn(`[discoveryNetns] skipped: ${unavailable}`);

const AGENT = 'tests/support/netnsDiscoveryAgent.ts';
const x = randomInt(0, 250);
const subnetX = `10.213.${x}`;
const subnetY = `10.213.${x + 1}`;
const discoveryPort = randomInt(20000, 60000);

interface Agent {
  readonly child: ChildProcess;
  stop(): Promise<string>;
}

function collect(child: ChildProcess): { text: () => string } {
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { text: () => text };
}

function startServer(lan: NetnsLan, host: string, args: Record<string, unknown>): Promise<Agent> {
  const child = lan.spawnIn(host, process.execPath, [...scriptArgs(AGENT), 'serve', JSON.stringify(args)]);
  const output = collect(child);
  const stop = () =>
    new Promise<string>((resolve) => {
      if (child.exitCode !== null) return resolve(output.text());
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(killer);
        resolve(output.text());
      });
      child.stdin?.end();
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server in ${host} not ready: ${output.text()}`)), 15_000);
    child.once('exit', (code) => reject(new Error(`server in ${host} exited (${code}): ${output.text()}`)));
    child.stdout?.on('data', () => {
      if (output.text().includes('READY')) {
        clearTimeout(timer);
        resolve({ child, stop });
      }
    });
  });
}

function search(lan: NetnsLan, host: string): Promise<{ targets: string[]; found: ServerInfo[] }> {
  const child = lan.spawnIn(host, process.execPath, [
    ...scriptArgs(AGENT),
    'search',
    JSON.stringify({ port: discoveryPort, timeoutMs: 800, allowedPrefix: '10.213.' }),
  ]);
  const output = collect(child);
  child.stdin?.end();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`search in ${host} timed out: ${output.text()}`));
    }, 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`search in ${host} failed (${code}): ${output.text()}`));
      resolve(JSON.parse(output.text().trim().split('\n').at(-1) ?? '') as { targets: string[]; found: ServerInfo[] });
    });
  });
}

describe.skipIf(unavailable !== undefined)('LAN discovery across network namespaces', () => {
  let lan: NetnsLan | undefined;
  const agents: Agent[] = [];

  beforeAll(async () => {
    lan = createNetnsLan(
      ['a', 'b', 'c'],
      [
        { prefix: subnetX, members: { a: 1, b: 2, c: 3 } },
        { prefix: subnetY, members: { a: 1, b: 2 } },
      ],
    );
    const servers = await Promise.all([
      startServer(lan, 'b', { name: 'Bravo', gamePort: 7102, port: discoveryPort, players: 2, instanceId: 'bravo' }),
      startServer(lan, 'c', { name: 'Charlie', gamePort: 7103, port: discoveryPort, players: 0 }),
    ]);
    agents.push(...servers);
  }, 60_000);

  afterAll(async () => {
    try {
      await Promise.all(agents.map((agent) => agent.stop()));
    } finally {
      lan?.destroy();
    }
  }, 30_000);

  it('lists the servers of the other hosts with their own addresses, once each', async () => {
    const { targets, found } = await search(lan!, 'a');
    expect(targets.sort()).toEqual([`${subnetX}.255`, `${subnetY}.255`].sort());
    const byName = new Map(found.map((info) => [info.name, info]));
    expect([...byName.keys()].sort()).toEqual(['Bravo', 'Charlie']);
    // Bravo answered on both subnets; its instance id merged the two replies into one entry.
    expect(found).toHaveLength(2);
    const bravo = byName.get('Bravo')!;
    expect([`${subnetX}.2`, `${subnetY}.2`]).toContain(bravo.address.host);
    expect(bravo).toMatchObject({ address: { port: 7102 }, playerCount: 2, instanceId: 'bravo', protocolVersion: 1 });
    expect(byName.get('Charlie')).toMatchObject({ address: { host: `${subnetX}.3`, port: 7103 }, playerCount: 0 });
  }, 30_000);

  it('finds the servers from a host on one subnet only', async () => {
    const { targets, found } = await search(lan!, 'c');
    expect(targets).toEqual([`${subnetX}.255`]);
    // c hears its own server through the broadcast too, at its own address.
    const hosts = Object.fromEntries(found.map((info) => [info.name, info.address.host]));
    expect(hosts).toEqual({ Bravo: `${subnetX}.2`, Charlie: `${subnetX}.3` });
  }, 30_000);
});
