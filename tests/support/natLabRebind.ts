import { spawnSync } from 'node:child_process';
import type { NatLab, LabRouter } from './natLab';

/**
 * A home router of the NAT lab that changes its public mappings under its players, as real ones do: a reboot or
 * an idle timeout that forgets every UDP mapping and hands out new ports, or a new WAN address from the ISP.
 * Only the router's own namespace is touched (its nftables table `ip lab_nat` and its conntrack table).
 *
 * An endpoint-independent router keeps that behaviour through a port move: its UDP source ports are mapped by a
 * fixed shift (an nftables map over the players' ephemeral range), so one socket keeps one public port whatever
 * it talks to; a symmetric one takes a new `masquerade … random` port range. Flushing conntrack uses the
 * `conntrack` CLI (Debian package `conntrack`, installed by `.ci/run`): nftables itself cannot drop entries.
 */

/** Why routers cannot be moved here (no `conntrack` CLI), or undefined when they can. */
export function rebindUnavailableReason(): string | undefined {
  if (spawnSync('conntrack', ['--version']).error) return 'the `conntrack` CLI (Debian package conntrack) is missing';
  return undefined;
}

/** Linux's default ephemeral ports (net.ipv4.ip_local_port_range), where the players' sockets are bound. */
const EPHEMERAL = { first: 32768, last: 60999 } as const;
/** Successive port moves of an endpoint-independent router: each source port moves by the next shift. */
const SHIFTS = [-12_000, 4_000, -20_000, -6_000] as const;
/** Successive port ranges of a symmetric router. */
const RANGES = [
  [20_000, 29_999],
  [10_000, 19_999],
  [62_000, 64_999],
  [1_500, 9_999],
] as const;

function runIn(namespace: string, command: string, args: readonly string[], input?: string): string {
  const result = spawnSync('ip', ['netns', 'exec', namespace, command, ...args], { encoding: 'utf8', input });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} in ${namespace} failed: ${(result.stderr || result.stdout).trim()}`);
  }
  return result.stdout;
}

/** The router's NAT table after `moves` port moves, with WAN address `wan`. */
function natTable(router: LabRouter, wan: string, moves: number): string {
  const out = `oifname "${router.wanDevice}"`;
  let udp = '';
  if (moves > 0 && router.kind === 'symmetric') {
    const [first, last] = RANGES[(moves - 1) % RANGES.length]!;
    udp = `    ${out} meta l4proto udp masquerade to :${first}-${last} random\n`;
  } else if (moves > 0) {
    const shift = SHIFTS[(moves - 1) % SHIFTS.length]!;
    const pairs: string[] = [];
    for (let port = EPHEMERAL.first; port <= EPHEMERAL.last; port += 1) pairs.push(`${port} : ${port + shift}`);
    udp = `    ${out} meta l4proto udp snat to ${wan} : udp sport map { ${pairs.join(', ')} }\n`;
  }
  // What the map does not cover (TCP to the rendezvous, a port bound outside the range) is masqueraded as before.
  return `delete table ip lab_nat
table ip lab_nat {
  chain postrouting {
    type nat hook postrouting priority 100; policy accept;
${udp}    ${out} masquerade${router.kind === 'symmetric' ? ' random' : ''}
  }
}
`;
}

/** One router of a lab whose mappings a test moves; see the file comment. */
export class RebindableRouter {
  private readonly router: LabRouter;
  private moves = 0;
  private address: string;

  constructor(
    lab: Pick<NatLab, 'routers' | 'wan'>,
    /** The router's name in the lab's spec. */
    readonly name: string,
  ) {
    const router = lab.routers[name];
    const wan = lab.wan[name];
    if (!router || !wan) throw new Error(`no router ${name} in the lab`);
    this.router = router;
    this.address = wan;
    // Without it, removing the WAN's primary address would remove the new (secondary) one with it.
    runIn(router.namespace, 'sysctl', ['-qw', `net.ipv4.conf.${router.wanDevice}.promote_secondaries=1`]);
    // The table in the form the moves rewrite (the same masquerade the lab made), so each move is one transaction.
    runIn(router.namespace, 'nft', ['-f', '-'], natTable(router, this.address, 0));
  }

  /** The router's public address now. */
  get wan(): string {
    return this.address;
  }

  /** Forgets every mapping (conntrack flush) and hands out ports from a new range from now on. */
  movePorts(): void {
    this.moves += 1;
    runIn(this.router.namespace, 'nft', ['-f', '-'], natTable(this.router, this.address, this.moves));
    this.flush();
  }

  /** Takes `next` (in the public /24) as the WAN address instead of the current one; every old mapping goes. */
  moveAddress(next: string): void {
    const { namespace, wanDevice } = this.router;
    runIn(namespace, 'ip', ['addr', 'add', `${next}/24`, 'dev', wanDevice]);
    runIn(namespace, 'nft', ['-f', '-'], natTable(this.router, next, this.moves));
    runIn(namespace, 'ip', ['addr', 'del', `${this.address}/24`, 'dev', wanDevice]);
    this.address = next;
    // Masquerade drops the entries of a removed address by itself; snat (the shifted map) does not.
    this.flush();
  }

  /** Drops everything its players send to `address` (e.g. the rendezvous) until {@link reachAgain}. */
  cutOff(address: string): void {
    const table = `table ip lab_cut {
  chain forward_cut {
    type filter hook forward priority -10; policy accept;
    ip daddr ${address} drop
  }
}
`;
    runIn(this.router.namespace, 'nft', ['-f', '-'], table);
  }

  /** Undoes {@link cutOff}. */
  reachAgain(): void {
    runIn(this.router.namespace, 'nft', ['delete', 'table', 'ip', 'lab_cut']);
  }

  /** The router's conntrack entries right now, one per line (for a test's failure message). */
  mappings(): string {
    return spawnSync('ip', ['netns', 'exec', this.router.namespace, 'conntrack', '-L'], { encoding: 'utf8' }).stdout;
  }

  private flush(): void {
    runIn(this.router.namespace, 'conntrack', ['-F']);
  }
}
