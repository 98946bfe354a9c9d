import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/**
 * Throwaway LANs made of Linux network namespaces: hosts joined by veth pairs to a bridge that lives in its
 * own "switch" namespace. Every link is created directly inside the namespaces, so nothing is added to, or
 * sent on, the machine's real interfaces. Needs root and iproute2.
 */

/** Why namespace tests cannot run here, or undefined when they can. */
export function netnsUnavailableReason(): string | undefined {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'network namespaces need root';
  if (spawnSync('ip', ['-V']).status !== 0) return 'the `ip` command (iproute2) is missing';
  const probe = `lpprobe${randomBytes(3).toString('hex')}`;
  const added = spawnSync('ip', ['netns', 'add', probe], { encoding: 'utf8' });
  if (added.status !== 0) return `cannot create network namespaces: ${added.stderr.trim()}`;
  spawnSync('ip', ['netns', 'del', probe]);
  return undefined;
}

function ip(...args: string[]): void {
  const result = spawnSync('ip', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`ip ${args.join(' ')} failed: ${result.stderr.trim()}`);
}

/**
 * Waits (at most 10 s) until every veth has carrier. A fresh veth pair reports NO-CARRIER for up to a second
 * after both ends are up, and Node's networkInterfaces() leaves such an interface out: a search started in
 * that window saw only some of its subnets.
 */
function waitForCarrier(links: readonly (readonly [string, string])[]): void {
  const deadline = Date.now() + 10_000;
  for (const [ns, dev] of links) {
    for (;;) {
      const state = spawnSync('ip', ['-n', ns, '-o', 'link', 'show', 'dev', dev], { encoding: 'utf8' }).stdout;
      if (!state.includes('NO-CARRIER') && state.includes('state UP')) break;
      if (Date.now() > deadline) throw new Error(`${dev} in ${ns} has no carrier after 10 s: ${state.trim()}`);
      spawnSync('sleep', ['0.05']);
    }
  }
}

/** One subnet: its /24 prefix (e.g. "10.213.7") and which hosts join it with which last octet. */
export interface SubnetSpec {
  readonly prefix: string;
  readonly members: Readonly<Record<string, number>>;
}

/** A namespace LAN that exists until {@link NetnsLan.destroy}. */
export interface NetnsLan {
  /** Host name → namespace name, for `ip netns exec`. */
  readonly namespaces: Readonly<Record<string, string>>;
  /** Host name → its addresses, one per subnet it joined. */
  readonly addresses: Readonly<Record<string, readonly string[]>>;
  /** Runs a command inside a host's namespace. */
  spawnIn(host: string, command: string, args: readonly string[], options?: { cwd?: string }): ChildProcess;
  /** Deletes every namespace (and with them every veth and bridge). Safe to call twice. */
  destroy(): void;
}

const created = new Set<string>();

function deleteNamespace(name: string): void {
  spawnSync('ip', ['netns', 'del', name]);
  created.delete(name);
}

// Last resort if a test process dies without its afterAll: never leave namespaces behind.
process.once('exit', () => {
  for (const name of [...created]) deleteNamespace(name);
});

/** Deletes every namespace whose name starts with `tag` (a lab's leftovers after a setup that timed out). */
export function deleteNamespacesTagged(tag: string): void {
  const listed = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout ?? '';
  for (const name of listed.split('\n').map((line) => line.split(' ')[0] ?? '')) {
    if (name.startsWith(tag)) deleteNamespace(name);
  }
}

/**
 * Builds the LAN; on any failure, removes what was already created and rethrows. Namespaces are named
 * `<tag>-<host>`; `tag` defaults to one unique to this call.
 */
export function createNetnsLan(
  hosts: readonly string[],
  subnets: readonly SubnetSpec[],
  tag = `lp${process.pid.toString(36)}${randomBytes(2).toString('hex')}`,
): NetnsLan {
  const namespaces: Record<string, string> = {};
  const addresses: Record<string, string[]> = {};
  const own: string[] = [];
  const links: [string, string][] = [];
  const add = (name: string) => {
    ip('netns', 'add', name);
    created.add(name);
    own.push(name);
    ip('-n', name, 'link', 'set', 'lo', 'up');
  };
  const destroy = () => {
    for (const name of own.splice(0)) deleteNamespace(name);
  };
  try {
    for (const host of hosts) {
      namespaces[host] = `${tag}-${host}`;
      addresses[host] = [];
      add(namespaces[host]);
    }
    subnets.forEach((subnet, index) => {
      const sw = `${tag}-sw${index}`;
      add(sw);
      ip('-n', sw, 'link', 'add', 'br0', 'type', 'bridge');
      ip('-n', sw, 'link', 'set', 'br0', 'up');
      for (const [host, octet] of Object.entries(subnet.members)) {
        const ns = namespaces[host];
        if (!ns) throw new Error(`unknown host ${host}`);
        const inside = `eth${index}`;
        const port = `p-${host}`.slice(0, 15);
        ip('link', 'add', inside, 'netns', ns, 'type', 'veth', 'peer', 'name', port, 'netns', sw);
        ip('-n', sw, 'link', 'set', port, 'master', 'br0');
        ip('-n', sw, 'link', 'set', port, 'up');
        const address = `${subnet.prefix}.${octet}`;
        ip('-n', ns, 'addr', 'add', `${address}/24`, 'broadcast', `${subnet.prefix}.255`, 'dev', inside);
        ip('-n', ns, 'link', 'set', inside, 'up');
        addresses[host]?.push(address);
        links.push([ns, inside]);
      }
    });
    waitForCarrier(links);
  } catch (error) {
    destroy();
    throw error;
  }
  return {
    namespaces,
    addresses,
    spawnIn(host, command, args, options = {}) {
      const ns = namespaces[host];
      if (!ns) throw new Error(`unknown host ${host}`);
      return spawn('ip', ['netns', 'exec', ns, command, ...args], {
        cwd: options.cwd ?? process.cwd(),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    },
    destroy,
  };
}
