import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetnsLan, netnsUnavailableReason, type NetnsLan } from '../../../support/netns';
import { waitFor } from '../../../support/waitFor';
import { scriptArgs } from '../../../support/scriptArgs';

// A real NAT between a guest and a host, made of network namespaces this file creates and deletes:
//   guest (LAN 10.214.x.2) — router (LAN .1 | WAN 10.214.x+1.1, nftables masquerade on its WAN side) — host (WAN .2)
// A native Server runs in host, a Client in guest, each a child process. Mid-stream the router's public side
// changes: its WAN address is replaced (the kernel forgets the flows masqueraded to the old one) and the masquerade
// rule now maps to ports 40000-40100, so the guest's next datagram leaves from a new address and port. The server
// must move the peer there (after a path challenge) without losing or reordering a message.
const unavailable =
  netnsUnavailableReason() ??
  (spawnSync('nft', ['--version']).status === 0 ? undefined : 'the `nft` command (nftables) is missing');
if (unavailable) console.warn(`[migrationNetns] skipped: ${unavailable}`);

const AGENT = 'tests/support/netnsMigrationAgent.ts';
const x = randomInt(0, 250);
const LAN = `10.214.${x}`;
const WAN = `10.214.${x + 1}`;
const COUNT = 1500;
/** 3 messages every 10 ms: a steady stream lasting ~5 s, so the move lands in the middle. */
const STREAM = { perTick: 3, tickMs: 10 };
const NEW_PORTS = { from: 40000, to: 40100 };

interface Agent {
  readonly child: ChildProcess;
  /** Every stdout line so far. */
  readonly lines: string[];
  /** The JSON event lines so far. */
  events(): Array<Record<string, unknown>>;
  stop(): Promise<void>;
}

function start(lan: NetnsLan, host: string, mode: string, args: object, ready: string): Promise<Agent> {
  const child = lan.spawnIn(host, process.execPath, [...scriptArgs(AGENT), mode, JSON.stringify(args)]);
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const agent: Agent = {
    child,
    lines,
    events: () => lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(killer);
          resolve();
        });
        child.stdin?.end();
      }),
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${mode} in ${host} not ready: ${lines.join('\n')}${stderr}`));
    }, 20_000);
    child.once('exit', (code) =>
      reject(new Error(`${mode} in ${host} exited (${code}): ${lines.join('\n')}${stderr}`)),
    );
    const check = () => {
      if (!lines.some((l) => l.startsWith(ready))) return;
      clearTimeout(timer);
      child.stdout?.off('data', check);
      resolve(agent);
    };
    child.stdout?.on('data', check);
  });
}

/** Runs a command in a namespace; throws with its stderr when it fails. */
function inNs(lan: NetnsLan, host: string, command: string, ...args: string[]): string {
  const result = spawnSync('ip', ['netns', 'exec', lan.namespaces[host]!, command, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} in ${host} failed: ${result.stderr.trim()}`);
  return result.stdout;
}

/** The router's NAT: masquerade on the WAN side (eth1), optionally into a port range. */
function nat(ports?: { from: number; to: number }): string {
  const udp = ports ? `oifname "eth1" meta l4proto udp masquerade to :${ports.from}-${ports.to}` : '';
  return [
    'table ip lpnat {',
    '  chain post { type nat hook postrouting priority srcnat; policy accept;',
    `    ${udp}`,
    '    oifname "eth1" masquerade',
    '  }',
    '}',
  ].join('\n');
}

describe.skipIf(unavailable !== undefined)('native migration through a real NAT (network namespaces)', () => {
  let lan: NetnsLan | undefined;
  const agents: Agent[] = [];

  beforeAll(() => {
    lan = createNetnsLan(
      ['guest', 'router', 'host'],
      [
        { prefix: LAN, members: { guest: 2, router: 1 } },
        { prefix: WAN, members: { router: 1, host: 2 } },
      ],
    );
    inNs(lan, 'router', 'sysctl', '-q', '-w', 'net.ipv4.ip_forward=1');
    // Without it, deleting the WAN's first address would delete the one added after it too.
    inNs(lan, 'router', 'sysctl', '-q', '-w', 'net.ipv4.conf.eth1.promote_secondaries=1');
  }, 30_000);

  afterAll(async () => {
    await Promise.all(agents.splice(0).map((a) => a.stop()));
    lan?.destroy();
  });

  it('moves the peer to its new public address and port mid-stream: same peer, nothing lost, all in order', async () => {
    const l = lan!;
    applyNat(l, nat());
    ip(l, 'guest', 'route', 'add', 'default', 'via', `${LAN}.1`);
    const server = await start(l, 'host', 'server', { host: `${WAN}.2` }, 'READY');
    agents.push(server);
    const port = (JSON.parse(server.lines.find((s) => s.startsWith('READY'))!.slice(6)) as { port: number }).port;
    const client = await start(l, 'guest', 'client', { host: `${WAN}.2`, port, count: COUNT, ...STREAM }, 'CONNECTED');
    agents.push(client);
    const { peerId, protocol } = JSON.parse(client.lines.find((s) => s.startsWith('CONNECTED'))!.slice(10)) as {
      peerId: number;
      protocol: string;
    };
    expect(protocol).toBe('native');
    const ups = () => server.events().filter((e) => e.ev === 'up');
    // The client's "connected" and the server's "connect" line come down different pipes: wait for the server's.
    await waitFor(() => server.events().some((e) => e.ev === 'connect'), 10_000, 'the server to report the connect');
    const connects = server.events().filter((e) => e.ev === 'connect');
    expect(connects).toHaveLength(1);
    // Before the change, the guest appears as the router's WAN address, port preserved or not.
    expect(connects[0]).toMatchObject({ peer: peerId, protocol: 'native' });
    expect(String(connects[0]!.endpoint)).toMatch(new RegExp(`^${WAN.replaceAll('.', '\\.')}\\.1:\\d+$`));

    await waitFor(() => ups().length >= COUNT / 5, 15_000, 'the stream to be under way');
    // The router's public side changes: a new WAN address, the old one gone (with the flows masqueraded to it),
    // new flows mapped into another port range.
    applyNat(l, nat(NEW_PORTS));
    ip(l, 'router', 'addr', 'add', `${WAN}.3/24`, 'dev', 'eth1');
    ip(l, 'router', 'addr', 'del', `${WAN}.1/24`, 'dev', 'eth1');
    const movedAt = ups().length;
    const changed = Date.now();
    expect(movedAt).toBeLessThan(COUNT);

    await waitFor(() => server.events().some((e) => e.ev === 'migrate'), 15_000, 'the server to see the move');
    const migratedAfter = Date.now() - changed;
    await waitFor(() => ups().length >= COUNT, 30_000, 'every message');
    console.log(
      `[migrationNetns] moved after ${migratedAfter} ms, at message ${movedAt} of ${COUNT}; ` +
        `all delivered ${Date.now() - changed} ms after the change`,
    );
    const events = server.events();
    const migrations = events.filter((e) => e.ev === 'migrate');
    expect(migrations).toHaveLength(1);
    const to = String(migrations[0]!.to);
    expect(migrations[0]).toMatchObject({ peer: peerId, from: connects[0]!.endpoint });
    const [address, mapped] = to.split(':');
    expect(address).toBe(`${WAN}.3`);
    expect(Number(mapped)).toBeGreaterThanOrEqual(NEW_PORTS.from);
    expect(Number(mapped)).toBeLessThanOrEqual(NEW_PORTS.to);
    // One peer throughout; every message exactly once, in order, from it.
    expect(events.filter((e) => e.ev === 'connect')).toHaveLength(1);
    expect(events.filter((e) => e.ev === 'disconnect')).toEqual([]);
    expect(new Set(ups().map((e) => e.peer))).toEqual(new Set([peerId]));
    expect(ups().map((e) => e.i)).toEqual([...Array(COUNT).keys()]);
    expect(client.events().filter((e) => e.ev === 'disconnect')).toEqual([]);
  }, 90_000);
});

function ip(lan: NetnsLan, host: string, ...args: string[]): void {
  const result = spawnSync('ip', ['-n', lan.namespaces[host]!, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`ip ${args.join(' ')} in ${host} failed: ${result.stderr.trim()}`);
}

/** Replaces the router's NAT table (a flush and the new rules in one nft transaction). */
function applyNat(lan: NetnsLan, rules: string): void {
  spawnSync('ip', ['netns', 'exec', lan.namespaces.router!, 'nft', 'delete', 'table', 'ip', 'lpnat']);
  const result = spawnSync('ip', ['netns', 'exec', lan.namespaces.router!, 'nft', '-f', '-'], {
    input: rules,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`nft -f in router failed: ${result.stderr.trim()}\n${rules}`);
}
