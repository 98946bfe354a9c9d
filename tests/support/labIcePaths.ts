import { createInterface } from 'node:readline';
import { mintTurnCredentials } from '../../main/net/ice';
import { createNatLab, type NatLab } from './natLab';
import type { LabFigures, LabPeerCommand, LabPeerEvent } from './labIcePeer';
import { scriptArgs } from './scriptArgs';

/**
 * The lab's "public internet" delays, so RTT is bound by the path, not by CPU scheduling on a loaded machine: each
 * home's uplink (every datagram a peer sends on its path, applied in the peer: see labIcePeer.ts) and the TURN leg
 * (a link conditioner in front of coturn: see turnLegCrossings). The relay's own cost on RTT is then TURN_LEG_MS
 * per crossing plus coturn's forwarding.
 */
export const UPLINK_MS = 10;
export const TURN_LEG_MS = 10;

/** A lab peer process (tests/support/labIcePeer.ts) inside a player's namespace. */
export interface LabPeer {
  send(command: LabPeerCommand): void;
  next<E extends LabPeerEvent['ev']>(
    ev: E | 'failed',
    timeoutMs?: number,
  ): Promise<Extract<LabPeerEvent, { ev: E | 'failed' }>>;
  kill(): void;
}

/** How a pair reaches TURN, and how long ICE may try. */
export interface PathOptions {
  turn?: 'valid' | 'expired' | 'wrong' | 'none';
  connectTimeoutSeconds?: number;
}

/** Setup time of a path that connected. */
export interface PathSetup {
  name: string;
  kind: string;
  pair: string;
  gatherMs: number;
  setupMs: number;
}

/** Host and guest peers of one scenario, with the path each settled on (or its failure). */
export type Pair = Awaited<ReturnType<IcePathsLab['connectPair']>>;

/** The internet-paths lab: NATs of each kind, coturn behind a delayed leg, and ICE peers spawned in its players. */
export interface IcePathsLab {
  readonly lab: NatLab;
  /** Setup time of every path that connected, in order. */
  readonly setups: PathSetup[];
  connectPair(
    hostPlayer: string,
    guestPlayer: string,
    options?: PathOptions,
  ): Promise<{
    host: LabPeer;
    guest: LabPeer;
    hostPath: Extract<LabPeerEvent, { ev: 'path' | 'failed' }>;
    guestPath: Extract<LabPeerEvent, { ev: 'path' | 'failed' }>;
    gatherMs: number;
  }>;
  /** Kills every peer and removes the lab. */
  destroy(): Promise<void>;
}

/**
 * Builds the lab, its ICE peers run by scriptArgs (so werift-ice resolves from node_modules): players e1,
 * e2 behind endpoint-independent NATs, s1, s2 behind symmetric ones, b1 behind a router that blocks UDP except to
 * TURN, pub on the public side. Needs root and namespaces (natLabUnavailableReason).
 */
export async function startIcePathsLab(): Promise<IcePathsLab> {
  const lab = await createNatLab({
    routers: {
      eim1: 'endpoint-independent',
      eim2: 'endpoint-independent',
      sym1: 'symmetric',
      sym2: 'symmetric',
      block: 'udp-blocked',
    },
    players: {
      e1: { router: 'eim1' },
      e2: { router: 'eim2' },
      s1: { router: 'sym1' },
      s2: { router: 'sym2' },
      b1: { router: 'block' },
      pub: 'public',
    },
    turnLegMs: TURN_LEG_MS,
  });
  const peers: LabPeer[] = [];
  const setups: PathSetup[] = [];

  const spawnPeer = (player: string): LabPeer => {
    const child = lab.spawnIn(player, process.execPath, scriptArgs('tests/support/labIcePeer.ts'));
    const queue: LabPeerEvent[] = [];
    const waiters: (() => void)[] = [];
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        queue.push(JSON.parse(line) as LabPeerEvent);
      } catch {
        stderr += `\n(stdout) ${line}`;
      }
      for (const wake of waiters.splice(0)) wake();
    });
    const peer: LabPeer = {
      send: (command) => child.stdin?.write(`${JSON.stringify(command)}\n`),
      async next(ev, timeoutMs = 20_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const index = queue.findIndex((e) => e.ev === ev || e.ev === 'failed' || e.ev === 'error');
          if (index >= 0) {
            const [event] = queue.splice(index, 1);
            if (event!.ev === 'error') throw new Error(`${player}: ${event!.message}\n${stderr}`);
            return event as never;
          }
          const left = deadline - Date.now();
          if (left <= 0 || child.exitCode !== null) {
            throw new Error(`${player}: no "${ev}" (exit ${child.exitCode}) ${stderr.slice(-1500)}`);
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.min(left, 250));
            waiters.push(() => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
      },
      kill: () => {
        if (child.exitCode === null) child.kill('SIGKILL');
      },
    };
    peers.push(peer);
    return peer;
  };

  /** Starts host and guest, swaps their offers (as the rendezvous would), waits for both paths. */
  const connectPair: IcePathsLab['connectPair'] = async (hostPlayer, guestPlayer, options = {}) => {
    const turnMode = options.turn ?? 'valid';
    const stun = { host: lab.turn.host, port: lab.turn.port };
    const relay = lab.turnLeg!;
    const turnFor = (id: string) => {
      if (turnMode === 'none') return undefined;
      const nowSeconds = Date.now() / 1000;
      const minted =
        turnMode === 'expired'
          ? mintTurnCredentials(lab.turn.secret, id, 60, nowSeconds - 3600)
          : mintTurnCredentials(turnMode === 'wrong' ? 'not-the-secret' : lab.turn.secret, id, 600, nowSeconds);
      return { host: relay.host, port: relay.port, username: minted.username, password: minted.password };
    };
    const host = spawnPeer(hostPlayer);
    const guest = spawnPeer(guestPlayer);
    const connectTimeoutSeconds = options.connectTimeoutSeconds ?? 10;
    const roomId = `room-${hostPlayer}-${guestPlayer}`;
    const common = { roomId, stun, connectTimeoutSeconds, uplinkMs: UPLINK_MS };
    host.send({ cmd: 'start', role: 'host', turn: turnFor('host'), ...common });
    guest.send({ cmd: 'start', role: 'guest', turn: turnFor('guest'), ...common });
    const [hostOffer, guestOffer] = await Promise.all([host.next('offer'), guest.next('offer')]);
    if (hostOffer.ev !== 'offer' || guestOffer.ev !== 'offer') throw new Error('gathering failed');
    host.send({ cmd: 'answer', ice: guestOffer.ice, publicKey: guestOffer.publicKey, ufrag: guestOffer.ufrag });
    guest.send({ cmd: 'answer', ice: hostOffer.ice, publicKey: hostOffer.publicKey, ufrag: hostOffer.ufrag });
    const waitMs = (connectTimeoutSeconds + 10) * 1000;
    const [hostPath, guestPath] = await Promise.all([host.next('path', waitMs), guest.next('path', waitMs)]);
    const gatherMs = Math.max(hostOffer.gatherMs, guestOffer.gatherMs);
    if (guestPath.ev === 'path' && hostPath.ev === 'path') {
      const { kind, setupMs } = guestPath.path;
      // Each end's own pair (local→remote): werift's two ends may settle on different ones.
      const pair = (side: typeof guestPath) => `${side.path.localType}→${side.path.remoteType}`;
      setups.push({
        name: `${hostPlayer} ← ${guestPlayer}`,
        kind,
        pair: `guest ${pair(guestPath)}, host ${pair(hostPath)}`,
        gatherMs,
        setupMs,
      });
    }
    return { host, guest, hostPath, guestPath, gatherMs };
  };

  return {
    lab,
    setups,
    connectPair,
    async destroy() {
      for (const peer of peers) peer.kill();
      await lab.destroy();
    },
  };
}

/** One measurement round on a connected pair (the guest measures; see labIcePeer.ts). */
export async function measureOnce(pair: Pair, pings: number, bulkMessages: number): Promise<LabFigures> {
  pair.guest.send({ cmd: 'measure', pings, bulkMessages, bulkBytes: 1000 });
  const result = await pair.guest.next('measured', 60_000);
  if (result.ev !== 'measured') throw new Error('measurement failed');
  return result.figures;
}

/**
 * How often one round trip crosses the TURN leg: each end's sends cross it once if they leave through its own
 * relay candidate, and once more if they go to a relay address (the peer's relay candidate, or a peer-reflexive
 * candidate there), since coturn hands them to the peer through the leg.
 */
export function turnLegCrossings(lab: NatLab, pair: Pair): number {
  let crossings = 0;
  for (const side of [pair.hostPath, pair.guestPath]) {
    if (side.ev !== 'path') continue;
    if (side.path.localType === 'relay') crossings += 1;
    if (side.remoteAddress === lab.turn.host) crossings += 1;
  }
  return crossings;
}
