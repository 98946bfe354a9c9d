import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createNetnsLan, type NetnsLan } from './netns';
import type { PortMapAgentCommand, PortMapAgentEvent } from './labPortMapAgent';
import { scriptArgs } from './scriptArgs';

/**
 * A home router that maps ports, in namespaces (recipe: nat-lab-notes.md, "A home router that maps ports"):
 *   lan (192.168.77.2) —eth1— rtr (192.168.77.1 | 203.0.113.1) —eth0— pub (203.0.113.2: a STUN responder)
 * The router runs Debian's miniupnpd (nftables build) unpacked at {@link MINIUPNPD_PATH}; it learns its WAN address
 * over STUN from `pub` (it refuses the documentation range as a configured address). Its nftables drop unsolicited
 * WAN input. Agents ({@link AGENT}, bundled by scriptArgs) run in `lan` and `pub`.
 */
const AGENT = 'tests/support/labPortMapAgent.ts';

/** Where .ci/run unpacks miniupnpd-nftables (`apt-get download miniupnpd-nftables && dpkg-deb -x … /opt/lan-party-lab/miniupnpd`). */
export const MINIUPNPD_PATH = '/opt/lan-party-lab/miniupnpd/usr/sbin/miniupnpd';

/** Why the miniupnpd lab cannot run: undefined when it can. A missing binary is a failure to report, not a skip. */
export function miniupnpdMissing(): string | undefined {
  if (existsSync(MINIUPNPD_PATH)) return undefined;
  return (
    `miniupnpd is missing at ${MINIUPNPD_PATH}. Get it with: cd /tmp && apt-get download miniupnpd-nftables && ` +
    'mkdir -p /opt/lan-party-lab/miniupnpd && dpkg-deb -x miniupnpd-nftables_*.deb /opt/lan-party-lab/miniupnpd ' +
    '(.ci/run does this)'
  );
}

/** A miniupnpd lab file's setup: fails (never skips) when miniupnpd is missing, saying how to get it. */
export function requireMiniupnpd(): void {
  const missing = miniupnpdMissing();
  if (missing) throw new Error(missing);
}

/** A lab agent process: send commands, await events. */
export interface LabAgent {
  send(command: PortMapAgentCommand): void;
  next<E extends PortMapAgentEvent['ev']>(ev: E, timeoutMs?: number): Promise<Extract<PortMapAgentEvent, { ev: E }>>;
  /** Events of a kind seen so far and not taken by next(). */
  seen<E extends PortMapAgentEvent['ev']>(ev: E): Extract<PortMapAgentEvent, { ev: E }>[];
  readonly child: ChildProcess;
}

/** What to build. */
export interface MiniupnpdLabSpec {
  /** Run miniupnpd on the router (false: a router that maps nothing). */
  readonly miniupnpd: boolean;
  /** The address the STUN responder reports (default: the source it sees, 203.0.113.1). */
  readonly stunReportsAs?: string;
  /**
   * A second home router `away` (WAN 203.0.113.3) with a player `guest` (192.168.88.2) behind it: `masquerade`
   * or `masquerade random`, both dropping unsolicited WAN input. Absent: no second router.
   */
  readonly away?: 'masquerade' | 'masquerade random';
  /**
   * The router's WAN (198.51.100.1) behind a second masquerading router `isp` (198.51.100.2 | 203.0.113.1) that drops
   * unsolicited input: miniupnpd asks a STUN responder in between (`mid`, 198.51.100.3), so it reports 198.51.100.1,
   * while `pub`'s (203.0.113.2:3478, the player's STUN server) sees 203.0.113.1.
   */
  readonly secondNat?: boolean;
  /** Prefix of every namespace's name (see deleteNamespacesTagged); default one unique to this lab. */
  readonly tag?: string;
}

/** The running lab. */
export interface MiniupnpdLab {
  readonly routerWan: string;
  readonly lanAddress: string;
  /** Starts an agent in `lan` or `pub`. */
  agent(host: 'lan' | 'pub'): Promise<LabAgent>;
  /** The router's `nft list chain inet filter prerouting_miniupnpd` output. */
  mappingChain(): string;
  /** A folder outside the namespaces for the mapping record. */
  readonly dir: string;
  /** Player → its address (`lan`, and `guest` with `away`), for RoomPeer. */
  readonly addresses: Readonly<Record<string, string>>;
  /** Runs a command in a namespace (`lan`, `pub`, `guest`), stdio piped; destroy() kills it if it still runs. */
  spawnIn(host: string, command: string, args: readonly string[]): ChildProcess;
  destroy(): Promise<void>;
}

const WAN = 'eth0';
const LAN = 'eth1';

function routerRules(): string {
  return `table inet filter {
  chain miniupnpd {
  }
  chain prerouting_miniupnpd {
  }
  chain postrouting_miniupnpd {
  }
  chain forward {
    type filter hook forward priority 0; policy drop;
    ct state established,related accept
    iifname "${LAN}" oifname "${WAN}" accept
    jump miniupnpd
  }
  chain input {
    type filter hook input priority 0; policy accept;
    iifname "${WAN}" ct state established,related accept
    iifname "${WAN}" drop
  }
  chain prerouting {
    type nat hook prerouting priority -100; policy accept;
    jump prerouting_miniupnpd
  }
  chain postrouting {
    type nat hook postrouting priority 100; policy accept;
    jump postrouting_miniupnpd
    oifname "${WAN}" masquerade
  }
}
`;
}

/**
 * A plain masquerading router (the second player's, or the ISP's in front of ours): NAT out of `wan`, forwarding
 * only from `lan` and replies, nothing new in from `wan` (nat-lab-notes.md: the input drop matters).
 */
function natRouterRules(table: string, kind: 'masquerade' | 'masquerade random', lan: string, wan: string): string {
  return `table ip ${table}_nat {
  chain postrouting {
    type nat hook postrouting priority 100; policy accept;
    oifname "${wan}" ${kind}
  }
}
table ip ${table}_filter {
  chain forward_filter {
    type filter hook forward priority 0; policy drop;
    ct state established,related accept
    iifname "${lan}" oifname "${wan}" accept
  }
  chain input_filter {
    type filter hook input priority 0; policy accept;
    iifname "${wan}" ct state established,related accept
    iifname "${wan}" drop
  }
}
`;
}

function miniupnpdConf(stunHost: string): string {
  return [
    `ext_ifname=${WAN}`,
    `listening_ip=${LAN}`,
    'http_port=0',
    'enable_natpmp=yes',
    'enable_upnp=yes',
    'ext_perform_stun=yes',
    `ext_stun_host=${stunHost}`,
    'ext_stun_port=3478',
    'secure_mode=yes',
    'system_uptime=yes',
    'uuid=3d3cec3a-8cf0-11e0-98ee-001a6bd2d07b',
    'allow 1024-65535 192.168.77.0/24 1024-65535',
    'deny 0-65535 0.0.0.0/0 0-65535',
    '',
  ].join('\n');
}

function run(ns: string, command: string, args: readonly string[], input?: string): string {
  const result = spawnSync('ip', ['netns', 'exec', ns, command, ...args], { encoding: 'utf8', input, timeout: 10_000 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} in ${ns}: ${(result.stderr || result.stdout).trim()}`);
  return result.stdout;
}

/** Builds the lab; on failure removes what it made and rethrows. */
export async function createMiniupnpdLab(spec: MiniupnpdLabSpec): Promise<MiniupnpdLab> {
  const away = spec.away !== undefined;
  const isp = spec.secondNat === true;
  if (away && isp) throw new Error('a lab has either a second player (away) or a second NAT, not both');
  // Each subnet is eth<index> in its members: the router's WAN is eth0, its LAN eth1.
  const lan: NetnsLan = createNetnsLan(
    ['pub', 'rtr', 'lan', ...(away ? ['away', 'guest'] : []), ...(isp ? ['isp', 'mid'] : [])],
    isp
      ? [
          { prefix: '198.51.100', members: { rtr: 1, isp: 2, mid: 3 } },
          { prefix: '192.168.77', members: { rtr: 1, lan: 2 } },
          { prefix: '203.0.113', members: { isp: 1, pub: 2 } },
        ]
      : [
          { prefix: '203.0.113', members: { rtr: 1, pub: 2, ...(away ? { away: 3 } : {}) } },
          { prefix: '192.168.77', members: { rtr: 1, lan: 2 } },
          ...(away ? [{ prefix: '192.168.88', members: { away: 1, guest: 2 } }] : []),
        ],
    spec.tag,
  );
  const dir = mkdtempSync(join(tmpdir(), 'lan-party-upnp-lab-'));
  const children = new Set<ChildProcess>();
  const ns = (host: string) => lan.namespaces[host]!;
  const agent = async (host: 'lan' | 'pub' | 'mid', args: readonly string[] = []): Promise<LabAgent> => {
    const child = spawn('ip', ['netns', 'exec', ns(host), process.execPath, ...scriptArgs(AGENT), ...args], {
      stdio: 'pipe',
    });
    children.add(child);
    child.once('exit', () => children.delete(child));
    const made = agentOf(child, host);
    await made.next('ready');
    return made;
  };
  try {
    run(ns('rtr'), 'sysctl', ['-qw', 'net.ipv4.ip_forward=1']);
    run(ns('rtr'), 'nft', ['-f', '-'], routerRules());
    run(ns('lan'), 'ip', ['route', 'add', 'default', 'via', '192.168.77.1']);
    if (spec.away) {
      run(ns('away'), 'sysctl', ['-qw', 'net.ipv4.ip_forward=1']);
      run(ns('away'), 'nft', ['-f', '-'], natRouterRules('away', spec.away, 'eth2', WAN));
      run(ns('guest'), 'ip', ['route', 'add', 'default', 'via', '192.168.88.1']);
    }
    if (isp) {
      run(ns('rtr'), 'ip', ['route', 'add', 'default', 'via', '198.51.100.2']);
      run(ns('isp'), 'sysctl', ['-qw', 'net.ipv4.ip_forward=1']);
      run(ns('isp'), 'nft', ['-f', '-'], natRouterRules('isp', 'masquerade', WAN, 'eth2'));
      await agent('mid', ['stun', '198.51.100.3', '3478']);
    }
    await agent('pub', ['stun', '203.0.113.2', '3478', ...(spec.stunReportsAs ? [spec.stunReportsAs] : [])]);
    if (spec.miniupnpd) {
      const conf = join(dir, 'miniupnpd.conf');
      writeFileSync(conf, miniupnpdConf(isp ? '198.51.100.3' : '203.0.113.2'));
      const daemon = spawn(
        'ip',
        ['netns', 'exec', ns('rtr'), MINIUPNPD_PATH, '-d', '-f', conf, '-P', join(dir, 'miniupnpd.pid')],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      children.add(daemon);
      daemon.once('exit', () => children.delete(daemon));
      await waitForLine(daemon, /Port forwarding is now enabled|Listening for NAT-PMP/, 10_000);
    }
  } catch (error) {
    for (const child of children) child.kill('SIGKILL');
    lan.destroy();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    routerWan: isp ? '198.51.100.1' : '203.0.113.1',
    lanAddress: '192.168.77.2',
    dir,
    addresses: { lan: '192.168.77.2', ...(away ? { guest: '192.168.88.2' } : {}) },
    spawnIn: (host, command, args) => {
      const child = spawn('ip', ['netns', 'exec', ns(host), command, ...args], {
        cwd: process.cwd(),
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      children.add(child);
      child.once('exit', () => children.delete(child));
      return child;
    },
    agent: (host) => agent(host),
    mappingChain: () => run(ns('rtr'), 'nft', ['list', 'chain', 'inet', 'filter', 'prerouting_miniupnpd']),
    destroy: async () => {
      for (const child of children) child.kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 50)); // let killed processes leave their namespaces
      lan.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits for a line of a child's output (stdout or stderr) to match. */
function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`no "${pattern.source}" within ${timeoutMs} ms:\n${output.slice(-2000)}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before "${pattern.source}":\n${output.slice(-2000)}`));
    });
  });
}

function agentOf(child: ChildProcess, name: string): LabAgent {
  const queue: PortMapAgentEvent[] = [];
  const waiters: (() => void)[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      queue.push(JSON.parse(line) as PortMapAgentEvent);
    } catch {
      stderr += `\n(stdout) ${line}`;
    }
    for (const wake of waiters.splice(0)) wake();
  });
  child.once('exit', () => {
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    child,
    send: (command) => void child.stdin?.write(`${JSON.stringify(command)}\n`),
    seen: (ev) => queue.filter((event) => event.ev === ev) as never,
    async next(ev, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = queue.findIndex((event) => event.ev === ev || event.ev === 'error');
        if (index >= 0) {
          const [event] = queue.splice(index, 1);
          if (event!.ev === 'error') throw new Error(`${name}: ${event!.message}\n${stderr}`);
          return event as never;
        }
        const left = deadline - Date.now();
        if (left <= 0 || child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`${name}: no "${ev}" (exit ${child.exitCode ?? child.signalCode}) ${stderr.slice(-1500)}`);
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => (clearTimeout(timer), resolve()));
        });
      }
    },
  };
}
