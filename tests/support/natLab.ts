import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createNetnsLan, netnsUnavailableReason, type NetnsLan, type SubnetSpec } from './netns';
import { coturnUnavailableReason, startCoturn, type Coturn } from './coturn';
import { startTurnLeg, type TurnLeg } from './labTurnLeg';

/**
 * A small internet in namespaces: a "public" bridge on 203.0.113.0/24 (a documentation range: it exists only
 * inside these namespaces) with coturn at .10, home routers with nftables NAT, players behind them on
 * 192.168.n.0/24 and players on the public side. Interfaces are eth* (werift ignores veth*, tap*, tun*).
 * With `turnLegMs`, a link conditioner at .9 stands in front of coturn (see {@link NatLab.turnLeg}).
 */

/** How a home router treats UDP. */
export type RouterKind =
  /** `masquerade` (keeps the source port when it can: endpoint-independent mapping) + drop new inbound on WAN. */
  | 'endpoint-independent'
  /** `masquerade random`: a fresh port per flow, as a symmetric NAT. */
  | 'symmetric'
  /** endpoint-independent, but UDP leaves only towards the TURN server's port. */
  | 'udp-blocked';

/** Where a player sits: behind a named router, or on the public side. */
export type PlayerPlace = { readonly router: string } | 'public';

/** What to build. */
export interface NatLabSpec {
  readonly routers: Readonly<Record<string, RouterKind>>;
  readonly players: Readonly<Record<string, PlayerPlace>>;
  /** One-way delay, each direction, of the leg between the clients and the TURN server (a link conditioner). */
  readonly turnLegMs?: number;
}

/** A home router of the lab as a test may reconfigure it: its NAT rules live in table `ip lab_nat`. */
export interface LabRouter {
  readonly namespace: string;
  readonly kind: RouterKind;
  /** Its WAN interface (on the public bridge) and its LAN interface. */
  readonly wanDevice: string;
  readonly lanDevice: string;
}

/** Home routers and players in namespaces, as every namespace lab (this one, privateDhtLab.ts) hands them to tests. */
export interface NamespacedPlayers {
  /** Player → its own address (192.168.n.2… behind a router, 203.0.113.20… on the public side). */
  readonly addresses: Readonly<Record<string, string>>;
  /** Router → its WAN (public) address. */
  readonly wan: Readonly<Record<string, string>>;
  /** Player → its namespace's name, for `ip netns exec` (e.g. a browser started inside it). */
  readonly namespaces: Readonly<Record<string, string>>;
  /** Router → its namespace, kind and interfaces, for tests that change a router under its players (natLabRebind.ts). */
  readonly routers: Readonly<Record<string, LabRouter>>;
  /** Runs a command in a player's namespace, stdio piped; destroy() kills it if it still runs. */
  spawnIn(player: string, command: string, args: readonly string[]): ChildProcess;
  /** Kills what runs in the lab and removes every namespace; safe to call twice. */
  destroy(): Promise<void>;
}

/** A lab that exists until {@link NatLab.destroy}: also coturn, and the TURN leg. */
export interface NatLab extends NamespacedPlayers {
  /** The coturn on the public side. */
  readonly turn: Coturn;
  /**
   * With `turnLegMs`: where clients reach coturn through the delay (STUN straight to `turn` stays undelayed).
   * Relayed data crosses it once each way per end that sends through its own relay candidate, direct data never.
   */
  readonly turnLeg?: TurnLeg;
}

/** Why the NAT lab cannot run here (not root, no `ip`, `nft` or coturn), or undefined when it can. */
export function natLabUnavailableReason(): string | undefined {
  const netns = netnsUnavailableReason();
  if (netns) return netns;
  if (spawnSync('nft', ['--version']).error) return 'nftables (`nft`) is not installed';
  return coturnUnavailableReason();
}

const PUBLIC = '203.0.113';
const TURN_OCTET = 10;
const TURN_LEG_OCTET = 9;
const TURN_PORT = 3478;
const WAN = 'eth0';

function run(ns: string, command: string, args: readonly string[], input?: string): string {
  const result = spawnSync('ip', ['netns', 'exec', ns, command, ...args], { encoding: 'utf8', input });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} in ${ns} failed: ${(result.stderr || result.stdout).trim()}`);
  }
  return result.stdout;
}

/**
 * nftables rules of one router: NAT on the WAN side, plus the filter a home router has: nothing new comes in
 * from the WAN. The input drop matters: a peer's check that reaches the router's own address before the
 * player's flow exists would otherwise leave a conntrack entry that makes masquerade pick another port for
 * the player's flow, so endpoint-independent NATs looked symmetric (see nat-lab-notes.md). The WAN is `eth0`; the
 * NAT lives in table `ip lab_nat` (natLabRebind.ts rewrites it). Other labs with home routers use it too.
 */
export function routerRules(kind: RouterKind, lan: string): string {
  const turn = `{ ${PUBLIC}.${TURN_OCTET}, ${PUBLIC}.${TURN_LEG_OCTET} }`;
  const blockUdp =
    kind === 'udp-blocked'
      ? `    iifname "${lan}" ip daddr ${turn} udp dport ${TURN_PORT} accept\n    iifname "${lan}" meta l4proto udp drop\n`
      : '';
  return `table ip lab_nat {
  chain postrouting {
    type nat hook postrouting priority 100; policy accept;
    oifname "${WAN}" masquerade${kind === 'symmetric' ? ' random' : ''}
  }
}
table ip lab_filter {
  chain forward_filter {
    type filter hook forward priority 0; policy accept;
    ct state established,related accept
    iifname "${WAN}" ct state new drop
${blockUdp}  }
  chain input_filter {
    type filter hook input priority 0; policy accept;
    iifname "${WAN}" ct state new drop
  }
}
`;
}

/** Builds the lab and starts coturn; on any failure removes what it made and rethrows. */
export async function createNatLab(spec: NatLabSpec): Promise<NatLab> {
  const routers = Object.keys(spec.routers);
  const players = Object.keys(spec.players);
  const publicMembers: Record<string, number> = { turn: TURN_OCTET };
  const withLeg = spec.turnLegMs !== undefined;
  if (withLeg) publicMembers.turnleg = TURN_LEG_OCTET;
  routers.forEach((router, i) => (publicMembers[router] = 11 + i));
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
    ['turn', ...(withLeg ? ['turnleg'] : []), ...routers, ...players],
    [{ prefix: PUBLIC, members: publicMembers }, ...homes],
  );
  let turn: Coturn | undefined;
  let turnLeg: TurnLeg | undefined;
  try {
    const ns = (host: string) => lan.namespaces[host]!;
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
    const wan = Object.fromEntries(routers.map((router) => [router, `${PUBLIC}.${publicMembers[router]}`]));
    turn = await startCoturn({
      host: `${PUBLIC}.${TURN_OCTET}`,
      port: TURN_PORT,
      spawnIn: (command, args) => lan.spawnIn('turn', command, args),
      runIn: (command, args) => {
        const result = spawnSync('ip', ['netns', 'exec', ns('turn'), command, ...args], {
          encoding: 'utf8',
          timeout: 5_000,
        });
        return { status: result.status, stdout: result.stdout ?? '' };
      },
    });
    if (withLeg) {
      turnLeg = await startTurnLeg({
        spawnIn: (command, args) => lan.spawnIn('turnleg', command, args),
        listen: { host: `${PUBLIC}.${TURN_LEG_OCTET}`, port: TURN_PORT },
        target: { host: turn.host, port: turn.port },
        latencyMs: spec.turnLegMs!,
      });
    }
    const coturn = turn;
    const leg = turnLeg;
    const children = new Set<ChildProcess>();
    let destroyed: Promise<void> | undefined;
    return {
      turn: coturn,
      turnLeg: leg,
      addresses,
      wan,
      namespaces: Object.fromEntries(players.map((player) => [player, ns(player)])),
      routers: Object.fromEntries(
        routers.map((router, i) => [
          router,
          { namespace: ns(router), kind: spec.routers[router]!, wanDevice: WAN, lanDevice: `eth${i + 1}` },
        ]),
      ),
      spawnIn: (player, command, args) => {
        const child = spawn('ip', ['netns', 'exec', ns(player), command, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
        children.add(child);
        child.once('exit', () => children.delete(child));
        return child;
      },
      destroy: () =>
        (destroyed ??= (async () => {
          // A process left inside a namespace would keep it (and its sockets) alive after `ip netns del`.
          for (const child of children) child.kill('SIGKILL');
          await leg?.stop().catch(() => undefined);
          await coturn.stop().catch(() => undefined);
          lan.destroy();
        })()),
    };
  } catch (error) {
    await turnLeg?.stop().catch(() => undefined);
    await turn?.stop().catch(() => undefined);
    lan.destroy();
    throw error;
  }
}
