import { spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { NatLab } from './natLab';
import type { SwarmPlan } from './labTrustSwarm';
import { scriptArgs } from './scriptArgs';

const SWARM = fileURLToPath(new URL('./labTrustSwarm.ts', import.meta.url));
const PROBE = fileURLToPath(new URL('./coturnPermissionProbe.ts', import.meta.url));

function inNamespace(lab: NatLab, player: string, command: string, args: readonly string[], input?: string): string {
  const ns = lab.namespaces[player];
  if (!ns) throw new Error(`no player ${player} in the lab`);
  const result = spawnSync('ip', ['netns', 'exec', ns, command, ...args], { encoding: 'utf8', input, timeout: 10_000 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} in ${ns}: ${(result.stderr || result.stdout).trim()}`);
  return result.stdout;
}

/**
 * Gives a public-side player `count` more addresses 203.0.113.<first>… on its lab interface (the lab's own
 * documentation range, inside its namespace only), so one process can speak from many source addresses.
 */
export function addSourceAddresses(lab: NatLab, player: string, first: number, count: number): string[] {
  const own = lab.addresses[player];
  if (!own?.startsWith('203.0.113.') || first < 100 || first + count > 255) {
    throw new Error(`source addresses go on the lab's public side, 203.0.113.100–254: ${player} is at ${own}`);
  }
  const dev = inNamespace(lab, player, 'ip', ['-o', '-4', 'addr', 'show'])
    .split('\n')
    .find((line) => line.includes(` ${own}/`))
    ?.split(/\s+/)[1];
  if (!dev) throw new Error(`no interface holds ${own}`);
  const addresses = Array.from({ length: count }, (_, i) => `203.0.113.${first + i}`);
  inNamespace(
    lab,
    player,
    'ip',
    ['-batch', '-'],
    addresses.map((a) => `addr add ${a}/32 dev ${dev}`).join('\n') + '\n',
  );
  return addresses;
}

/** Starts the swarm (labTrustSwarm.ts) in `player`'s namespace; `result` is its summary line. */
export function startSwarm(
  lab: NatLab,
  player: string,
  plan: SwarmPlan,
): { child: ChildProcess; started: Promise<void>; result: Promise<Record<string, unknown>> } {
  const child = lab.spawnIn(player, process.execPath, [...scriptArgs(SWARM), JSON.stringify(plan)]);
  let out = '';
  let err = '';
  let onStarted: () => void = () => undefined;
  // A churning swarm says `started` once its first joins go out (a process start takes seconds on a busy machine).
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  const result = new Promise<Record<string, unknown>>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n').slice(0, -1);
      if (lines.includes('started')) onStarted();
      const line = lines.find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as Record<string, unknown>);
    });
    child.stderr!.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)));
    child.once('exit', (code) => reject(new Error(`swarm ${plan.mode} exited (${code}) without a summary: ${err}`)));
  });
  return { child, started, result };
}

/** Runs a swarm to its end and returns its summary. */
export async function runSwarm(lab: NatLab, player: string, plan: SwarmPlan): Promise<Record<string, unknown>> {
  return startSwarm(lab, player, plan).result;
}

/**
 * An nftables counter in `player`'s namespace of UDP packets it sends to `addresses` (the output hook: before
 * any router, whether or not anything answers). The table lives in the namespace and goes with it.
 */
export function udpOutCounter(
  lab: NatLab,
  player: string,
  addresses: readonly string[],
): { read(): number; reset(): void } {
  inNamespace(
    lab,
    player,
    'nft',
    ['-f', '-'],
    `table ip trust_watch {
  counter udp_out {}
  chain out {
    type filter hook output priority 0; policy accept;
    ip daddr { ${addresses.join(', ')} } meta l4proto udp counter name udp_out
  }
}
`,
  );
  return {
    read() {
      const listed = inNamespace(lab, player, 'nft', ['list', 'counter', 'ip', 'trust_watch', 'udp_out']);
      const packets = /packets (\d+)/.exec(listed);
      if (!packets) throw new Error(`cannot read the counter: ${listed}`);
      return Number(packets[1]);
    },
    reset() {
      inNamespace(lab, player, 'nft', ['reset', 'counter', 'ip', 'trust_watch', 'udp_out']);
    },
  };
}

/**
 * Waits (bounded) until `read` stops changing for `quietMs`, and no earlier than `notBeforeMs` from now (a
 * sender's own give-up time): a sender's retransmissions are over.
 */
export async function untilQuiet(
  read: () => number,
  quietMs: number,
  timeoutMs: number,
  notBeforeMs = 0,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  const earliest = Date.now() + notBeforeMs;
  let last = read();
  let since = Date.now();
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    const now = read();
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs && Date.now() >= earliest) return now;
  }
  throw new Error(`still changing after ${timeoutMs} ms (at ${last})`);
}

/**
 * Cuts `player`'s TCP link to `address:port` as a lost network would, inside its own namespace: resets the
 * connections it has open there (`ss -K`, the peer sees them end) and drops new ones until `restore`.
 */
export function cutTcp(lab: NatLab, player: string, address: string, port: number): { restore(): void } {
  // The resets first (the drop rule would swallow them); the host's next try is a second away.
  inNamespace(lab, player, 'ss', ['-K', 'dst', address, 'dport', '=', `:${port}`]);
  inNamespace(
    lab,
    player,
    'nft',
    ['-f', '-'],
    `table ip trust_cut {
  chain out {
    type filter hook output priority 0; policy accept;
    ip daddr ${address} tcp dport ${port} drop
  }
}
`,
  );
  return { restore: () => void inNamespace(lab, player, 'nft', ['delete', 'table', 'ip', 'trust_cut']) };
}

/** Tries a TURN allocation on the lab's coturn from `player`'s namespace (coturnPermissionProbe.ts, no peers). */
export async function tryAllocate(
  lab: NatLab,
  player: string,
  credentials: { readonly username: string; readonly password: string },
): Promise<{ ok: boolean; said: string }> {
  const request = { host: lab.turn.host, port: lab.turn.port, ...credentials, peers: [] };
  const child = lab.spawnIn(player, process.execPath, [...scriptArgs(PROBE), JSON.stringify(request)]);
  let said = '';
  child.stdout!.on('data', (chunk: Buffer) => (said += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { ok: status === 0, said: said.trim() };
}
