import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { lineMatching } from './lineMatching';
import { routerRules, type NamespacedPlayers, type PlayerPlace, type RouterKind } from './natLab';
import { createNetnsLan, netnsUnavailableReason, type NetnsLan, type SubnetSpec } from './netns';
import { scriptArgs } from './scriptArgs';

/**
 * A private HyperDHT in namespaces, with no server of ours (recipe: nat-lab-notes.md, "A private HyperDHT"):
 *   dht (203.0.113.10–.14: five bootstrap nodes, port 49737, in one process) — the public bridge 203.0.113.0/24 —
 *   home routers (203.0.113.1…, `masquerade` or `masquerade random`, each dropping unsolicited WAN input, the NAT
 *   rules of natLab.ts so natLabRebind.ts can move their mappings) — players behind them on 192.168.n.0/24, and
 *   players on the public side (203.0.113.20…). Peers bootstrap with {@link PrivateDhtLab.bootstrap}.
 */

/** The DHT port of every bootstrap node (HyperDHT's usual one). */
export const LAB_DHT_PORT = 49737;

/** What to build: routers of the two kinds a DHT punch cares about, and who sits where. */
export interface PrivateDhtLabSpec {
  readonly routers: Readonly<Record<string, Exclude<RouterKind, 'udp-blocked'>>>;
  readonly players: Readonly<Record<string, PlayerPlace>>;
  /** Prefix of every namespace's name (see deleteNamespacesTagged); default one unique to this lab. */
  readonly tag?: string;
}

/** A lab that exists until destroy() (which also stops the bootstrap nodes). */
export interface PrivateDhtLab extends NamespacedPlayers {
  /** Where peers bootstrap: the five nodes, `host:port`, the first one first. */
  readonly bootstrap: readonly string[];
  /** How long the five nodes took to bootstrap each other, in ms (a figure to print). */
  readonly bootstrapMs: number;
  /** Router → its LAN address, its players' default gateway (where the app asks for a port mapping). */
  readonly gateways: Readonly<Record<string, string>>;
}

/** Why this lab cannot run here (not root, no `ip` or `nft`), or undefined when it can. */
export function privateDhtLabUnavailableReason(): string | undefined {
  const netns = netnsUnavailableReason();
  if (netns) return netns;
  if (spawnSync('nft', ['--version']).error) return 'nftables (`nft`) is not installed';
  return undefined;
}

const PUBLIC = '203.0.113';
const NODE_OCTETS = [10, 11, 12, 13, 14] as const;
const NODES_SCRIPT = fileURLToPath(new URL('./labDhtNodes.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function run(ns: string, command: string, args: readonly string[], input?: string): void {
  const result = spawnSync('ip', ['netns', 'exec', ns, command, ...args], { encoding: 'utf8', input, timeout: 10_000 });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} in ${ns} failed: ${(result.stderr || result.stdout).trim()}`);
  }
}

/** Kills `children` and waits until each has exited (a process left inside a namespace keeps its sockets alive). */
async function killAll(children: Set<ChildProcess>): Promise<void> {
  await Promise.all(
    [...children].map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      return exited;
    }),
  );
}

/** Builds the lab and starts the bootstrap nodes; on any failure removes what it made and rethrows. */
export async function createPrivateDhtLab(spec: PrivateDhtLabSpec): Promise<PrivateDhtLab> {
  const routers = Object.keys(spec.routers);
  const players = Object.keys(spec.players);
  if (routers.length > NODE_OCTETS[0] - 1) throw new Error(`at most ${NODE_OCTETS[0] - 1} routers`);
  const publicMembers: Record<string, number> = { dht: NODE_OCTETS[0] };
  routers.forEach((router, i) => (publicMembers[router] = 1 + i));
  const homes: SubnetSpec[] = routers.map((router, i) => {
    const members: Record<string, number> = { [router]: 1 };
    let next = 2;
    for (const player of players) {
      const place = spec.players[player];
      if (place !== 'public' && place?.router === router) members[player] = next++;
    }
    return { prefix: `192.168.${i + 1}`, members };
  });
  let nextPublic = 20;
  for (const player of players) {
    const place = spec.players[player];
    if (place === 'public') publicMembers[player] = nextPublic++;
    else if (!place || !routers.includes(place.router)) throw new Error(`player ${player}: unknown router`);
  }
  const lan: NetnsLan = createNetnsLan(
    ['dht', ...routers, ...players],
    [{ prefix: PUBLIC, members: publicMembers }, ...homes],
    spec.tag,
  );
  const ns = (host: string) => lan.namespaces[host]!;
  const children = new Set<ChildProcess>();
  const spawnIn = (host: string, command: string, args: readonly string[]): ChildProcess => {
    const child = spawn('ip', ['netns', 'exec', ns(host), command, ...args], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.add(child);
    child.once('exit', () => children.delete(child));
    return child;
  };
  try {
    for (const octet of NODE_OCTETS.slice(1))
      run(ns('dht'), 'ip', ['addr', 'add', `${PUBLIC}.${octet}/24`, 'dev', 'eth0']);
    routers.forEach((router, i) => {
      run(ns(router), 'sysctl', ['-qw', 'net.ipv4.ip_forward=1']);
      run(ns(router), 'nft', ['-f', '-'], routerRules(spec.routers[router]!, `eth${i + 1}`));
    });
    const addresses: Record<string, string> = {};
    for (const player of players) {
      const place = spec.players[player]!;
      if (place === 'public') {
        addresses[player] = `${PUBLIC}.${publicMembers[player]}`;
        continue;
      }
      const index = routers.indexOf(place.router);
      addresses[player] = `192.168.${index + 1}.${homes[index]!.members[player]}`;
      run(ns(player), 'ip', ['route', 'add', 'default', 'via', `192.168.${index + 1}.1`]);
    }
    const hosts = NODE_OCTETS.map((octet) => `${PUBLIC}.${octet}`);
    const nodes = spawnIn('dht', process.execPath, [...scriptArgs(NODES_SCRIPT), String(LAB_DHT_PORT), ...hosts]);
    // A process in a namespace starts in well under a second idle, far slower on a busy machine; five nodes take ~1 s.
    const [ready] = await lineMatching(nodes, /^\{"ev":"ready".*\}$/, 90_000);
    const bootstrapMs = (JSON.parse(ready) as { ms: number }).ms;
    let destroyed: Promise<void> | undefined;
    return {
      bootstrap: hosts.map((host) => `${host}:${LAB_DHT_PORT}`),
      bootstrapMs,
      addresses,
      wan: Object.fromEntries(routers.map((router) => [router, `${PUBLIC}.${publicMembers[router]}`])),
      gateways: Object.fromEntries(routers.map((router, i) => [router, `192.168.${i + 1}.1`])),
      namespaces: Object.fromEntries(players.map((player) => [player, ns(player)])),
      routers: Object.fromEntries(
        routers.map((router, i) => [
          router,
          { namespace: ns(router), kind: spec.routers[router]!, wanDevice: 'eth0', lanDevice: `eth${i + 1}` },
        ]),
      ),
      spawnIn: (player, command, args) => spawnIn(player, command, args),
      destroy: () =>
        (destroyed ??= (async () => {
          await killAll(children);
          lan.destroy();
        })()),
    };
  } catch (error) {
    await killAll(children);
    lan.destroy();
    throw error;
  }
}
