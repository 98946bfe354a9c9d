import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintTurnCredentials } from '../../main/net/ice';
import { createNatLab, natLabUnavailableReason, type NatLab } from '../support/natLab';
import type { LabFigures, LabPeerCommand, LabPeerEvent } from '../support/labIcePeer';

// Internet paths in a small internet of namespaces (tests/support/natLab.ts): ICE (werift-ice) with coturn's
// STUN and TURN, the secure socket, and a real Server and Client (native) of ours over each path.
const skip = natLabUnavailableReason();
const MESSAGES = 500;
/**
 * The lab's "public internet" delays, so RTT is bound by the path, not by CPU scheduling on a loaded machine: each
 * home's uplink (every datagram a peer sends on its path, applied in the peer: see labIcePeer.ts) and the TURN leg
 * (a link conditioner in front of coturn: see turnLegCrossings). The relay's own cost on RTT is then TURN_LEG_MS
 * per crossing plus coturn's forwarding, and the figure asks whether our stack pays more than bare datagrams do.
 */
const UPLINK_MS = 10;
const TURN_LEG_MS = 10;
const ROUNDS = 5;
/**
 * Per round and path: pings for RTT, and 1000-byte messages for throughput. The paths are bound by their delays
 * (a relayed round is ~4 s of waiting, little CPU), so these counts set the file's time: 20 and 300 keep every
 * round's window-limited transfer at ~19 windows, enough for a median, at half the wait of 40 and 600.
 */
const PINGS = 20;
const BULK_MESSAGES = 300;

let lab: NatLab;
const peers: LabPeer[] = [];
type Pair = Awaited<ReturnType<typeof connectPair>>;
/** Setup time of every path that connected, by scenario. */
const setups: { name: string; kind: string; pair: string; gatherMs: number; setupMs: number }[] = [];
/** The pairs the figures are measured on, kept open until the end. */
const kept: { direct?: Pair; relayed?: Pair } = {};
/** TURN-leg crossings of one round trip on the kept relayed pair (see turnLegCrossings). */
let legCrossings = 0;
// The peer bundle lives inside the project so its packages (werift-ice) resolve from node_modules.
const OUT_DIR = join(process.cwd(), 'test-output', 'lab');
const PEER_BUNDLE = join(OUT_DIR, `labIcePeer-${process.pid}.cjs`);
const FIGURES_FILE = join(OUT_DIR, 'internet-path-figures.txt');

beforeAll(async () => {
  if (skip) return;
  mkdirSync(OUT_DIR, { recursive: true });
  await build({
    entryPoints: ['tests/support/labIcePeer.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    outfile: PEER_BUNDLE,
    logLevel: 'warning',
  });
  lab = await createNatLab({
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
}, 30_000);

afterAll(async () => {
  for (const peer of peers) peer.kill();
  await lab?.destroy();
  rmSync(PEER_BUNDLE, { force: true });
});

/** A lab peer process (tests/support/labIcePeer.ts) inside a player's namespace. */
interface LabPeer {
  send(command: LabPeerCommand): void;
  next<E extends LabPeerEvent['ev']>(
    ev: E | 'failed',
    timeoutMs?: number,
  ): Promise<Extract<LabPeerEvent, { ev: E | 'failed' }>>;
  kill(): void;
}

function spawnPeer(player: string): LabPeer {
  const child = lab.spawnIn(player, process.execPath, [PEER_BUNDLE]);
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
}

interface PathOptions {
  turn?: 'valid' | 'expired' | 'wrong' | 'none';
  connectTimeoutSeconds?: number;
}

/** Starts host and guest, swaps their offers through the test (as the rendezvous would), waits for both paths. */
async function connectPair(hostPlayer: string, guestPlayer: string, options: PathOptions = {}) {
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
}

/** Moves MESSAGES reliable messages guest → host, each echoed, and checks none was lost or duplicated. */
async function exchange(pair: Awaited<ReturnType<typeof connectPair>>) {
  await Promise.all([pair.host.next('connected'), pair.guest.next('connected')]);
  pair.guest.send({ cmd: 'traffic', messages: MESSAGES });
  const [atHost, atGuest] = await Promise.all([pair.host.next('traffic'), pair.guest.next('traffic')]);
  for (const report of [atHost, atGuest]) {
    expect(report).toMatchObject({ ev: 'traffic', received: MESSAGES, duplicates: 0, outOfOrder: 0 });
  }
}

/** One measurement round on a kept pair (the guest measures; see labIcePeer.ts). */
async function measureOnce(pair: Pair): Promise<LabFigures> {
  pair.guest.send({ cmd: 'measure', pings: PINGS, bulkMessages: BULK_MESSAGES, bulkBytes: 1000 });
  const result = await pair.guest.next('measured', 60_000);
  if (result.ev !== 'measured') throw new Error('measurement failed');
  return result.figures;
}

/**
 * How often one round trip crosses the TURN leg: each end's sends cross it once if they leave through its own
 * relay candidate, and once more if they go to a relay address (the peer's relay candidate, or a peer-reflexive
 * candidate there), since coturn hands them to the peer through the leg.
 */
function turnLegCrossings(pair: Pair): number {
  let crossings = 0;
  for (const side of [pair.hostPath, pair.guestPath]) {
    if (side.ev !== 'path') continue;
    if (side.path.localType === 'relay') crossings += 1;
    if (side.remoteAddress === lab.turn.host) crossings += 1;
  }
  return crossings;
}

function expectPath(pair: Awaited<ReturnType<typeof connectPair>>, kind: 'direct' | 'relayed') {
  for (const side of [pair.hostPath, pair.guestPath]) {
    if (side.ev === 'failed') throw new Error(`no path: ${side.message}`);
    expect(side.path.kind).toBe(kind);
  }
}

describe.skipIf(skip)(`internet paths in a NAT lab${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('both behind endpoint-independent NATs: direct, 500 reliable messages each way intact', async () => {
    const pair = await connectPair('e1', 'e2');
    expectPath(pair, 'direct');
    await exchange(pair);
    kept.direct = pair;
  }, 60_000);

  it('both behind symmetric NATs: relayed, 500 reliable messages each way intact', async () => {
    const pair = await connectPair('s1', 's2');
    expectPath(pair, 'relayed');
    await exchange(pair);
    kept.relayed = pair;
    legCrossings = turnLegCrossings(pair);
  }, 60_000);

  it('UDP blocked except to the TURN port: relayed', async () => {
    const pair = await connectPair('b1', 'e2');
    expectPath(pair, 'relayed');
    await exchange(pair);
  }, 60_000);

  it('host on the public side: direct', async () => {
    const pair = await connectPair('pub', 's1');
    expectPath(pair, 'direct');
    await exchange(pair);
  }, 60_000);

  // The failure cases wait out their connect timeouts side by side.
  it.concurrent(
    'symmetric NATs and no TURN: the clear "no relay" error on both sides',
    async () => {
      const pair = await connectPair('s1', 's2', { turn: 'none', connectTimeoutSeconds: 3 });
      for (const side of [pair.hostPath, pair.guestPath]) {
        expect(side).toMatchObject({ ev: 'failed', failure: 'no-relay' });
        if (side.ev === 'failed')
          expect(side.message).toMatch(/^host behind a network that blocks UDP and no relay configured/);
      }
    },
    60_000,
  );

  it.concurrent(
    'expired TURN credentials: the clear "credentials refused (expired)" error',
    async () => {
      const pair = await connectPair('s1', 's2', { turn: 'expired', connectTimeoutSeconds: 3 });
      for (const side of [pair.hostPath, pair.guestPath]) {
        expect(side).toMatchObject({ ev: 'failed', failure: 'relay-failed' });
        if (side.ev === 'failed') expect(side.message).toMatch(/refused the credentials \(they expired\)/);
      }
    },
    60_000,
  );
  it.concurrent(
    'TURN credentials from another secret: "refused the credentials (wrong or expired)"',
    async () => {
      const pair = await connectPair('s2', 's1', { turn: 'wrong', connectTimeoutSeconds: 3 });
      for (const side of [pair.hostPath, pair.guestPath]) {
        expect(side).toMatchObject({ ev: 'failed', failure: 'relay-failed' });
        if (side.ev === 'failed') expect(side.message).toMatch(/refused the credentials \(wrong or expired\)/);
      }
    },
    60_000,
  );

  it('figures: setup time by path; the relay’s added RTT and throughput loss, stack vs raw (printed, and in test-output/lab)', async () => {
    const { direct, relayed } = kept;
    if (!direct || !relayed) throw new Error('the direct and relayed scenarios must pass first');
    // Alternating rounds, so load from elsewhere on the machine falls on both paths alike; medians reported.
    const rounds: { direct: LabFigures[]; relayed: LabFigures[] } = { direct: [], relayed: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.direct.push(await measureOnce(direct));
      rounds.relayed.push(await measureOnce(relayed));
    }
    for (const figures of [...rounds.direct, ...rounds.relayed]) {
      expect(figures.rawBytesPerSecond).toBeGreaterThan(0);
      expect(figures.stackBytesPerSecond).toBeGreaterThan(0);
      // Lower bounds only (a delay line cannot be beaten): the uplinks' delay is on both paths.
      expect(figures.rawRttMs).toBeGreaterThanOrEqual(2 * UPLINK_MS);
      expect(figures.stackRttMs).toBeGreaterThanOrEqual(2 * UPLINK_MS);
    }
    const report = formatFigures(rounds.direct, rounds.relayed);
    writeFileSync(FIGURES_FILE, `${report}\n`);
    console.log(`\n${report}\n`);
  }, 240_000);
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function medianFigures(list: LabFigures[]): LabFigures {
  const mid = (pick: (f: LabFigures) => number) => median(list.map(pick));
  return {
    rawRttMs: mid((f) => f.rawRttMs),
    stackRttMs: mid((f) => f.stackRttMs),
    rawBytesPerSecond: mid((f) => f.rawBytesPerSecond),
    stackBytesPerSecond: mid((f) => f.stackBytesPerSecond),
    rawLost: mid((f) => f.rawLost),
    stackRetransmits: mid((f) => f.stackRetransmits),
    windowBytes: mid((f) => f.windowBytes),
  };
}

/** What the relay does to one kind of traffic: RTT it adds (ms) and the share of throughput it takes away. */
interface RelayCost {
  addedRttMs: number;
  throughputLoss: number;
}

function relayCost(direct: LabFigures, relayed: LabFigures, kind: 'raw' | 'stack'): RelayCost {
  const rtt = kind === 'raw' ? (f: LabFigures) => f.rawRttMs : (f: LabFigures) => f.stackRttMs;
  const rate = kind === 'raw' ? (f: LabFigures) => f.rawBytesPerSecond : (f: LabFigures) => f.stackBytesPerSecond;
  return { addedRttMs: rtt(relayed) - rtt(direct), throughputLoss: 1 - rate(relayed) / rate(direct) };
}

const pct = (ratio: number) => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%`;

/**
 * The extra hop's own cost is what the relay does to bare datagrams on the same ICE sockets (raw probes: no
 * encryption, no protocol, the same window and no pacing, like the stack); the relay's cost to our stack is
 * stated against it: added RTT (relayed − direct) and throughput loss (1 − relayed/direct), stack over raw.
 * Differences, not ratios, so what the stack costs on every path (encryption, acks) cancels out.
 */
function formatFigures(directRounds: LabFigures[], relayedRounds: LabFigures[]): string {
  const direct = medianFigures(directRounds);
  const relayed = medianFigures(relayedRounds);
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  const mbs = (v: number) => `${(v / 1e6).toFixed(3)} MB/s`;
  const lines = [
    `internet path figures (NAT lab, one run; uplinks ${UPLINK_MS} ms one way, TURN leg ${TURN_LEG_MS} ms each way;`,
    `  RTT = median of ${PINGS} pings; throughput = ${BULK_MESSAGES} × 1000 B, window ${direct.windowBytes} B; medians of ${ROUNDS} alternating rounds)`,
  ];
  for (const s of setups) {
    lines.push(
      `  setup ${s.name.padEnd(9)} ${s.kind.padEnd(8)} ${s.pair.padEnd(36)} gather ${s.gatherMs.toFixed(0).padStart(5)} ms, connect ${s.setupMs.toFixed(0).padStart(5)} ms`,
    );
  }
  for (const [name, f] of [
    ['direct', direct],
    ['relayed', relayed],
  ] as const) {
    lines.push(
      `  ${name.padEnd(8)} RTT raw ${ms(f.rawRttMs)}, stack ${ms(f.stackRttMs)}; throughput raw ${mbs(f.rawBytesPerSecond)} (${f.rawLost} lost), stack ${mbs(f.stackBytesPerSecond)} (${f.stackRetransmits} retransmits)`,
    );
  }
  const raw = relayCost(direct, relayed, 'raw');
  const stack = relayCost(direct, relayed, 'stack');
  // The same figure per round (round i's direct against round i's relayed), to show how much it moves.
  const perRound = directRounds.map((d, i) => {
    const r = relayedRounds[i]!;
    const [rw, st] = [relayCost(d, r, 'raw'), relayCost(d, r, 'stack')];
    return { rtt: st.addedRttMs / rw.addedRttMs, tput: st.throughputLoss / rw.throughputLoss };
  });
  const spread = (pick: (p: (typeof perRound)[number]) => number) => {
    const values = perRound.map(pick).sort((a, b) => a - b);
    return `rounds ${pct(values[0]!)} … ${pct(values[values.length - 1]!)}`;
  };
  lines.push(
    `  relay's added RTT: raw ${ms(raw.addedRttMs)} (the hop's own cost; the TURN leg alone is ${legCrossings} × ${TURN_LEG_MS} ms), stack ${ms(stack.addedRttMs)}: stack ${pct(stack.addedRttMs / raw.addedRttMs)} over the hop's own cost (goal ≤ +10%; ${spread((p) => p.rtt)})`,
    `  relay's throughput loss: raw ${(raw.throughputLoss * 100).toFixed(1)}%, stack ${(stack.throughputLoss * 100).toFixed(1)}%: stack ${pct(stack.throughputLoss / raw.throughputLoss)} over the hop's own cost (goal ≤ +10%; ${spread((p) => p.tput)})`,
  );
  return lines.join('\n');
}
