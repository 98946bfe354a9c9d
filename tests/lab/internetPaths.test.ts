import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintTurnCredentials } from '../../main/net/ice';
import { createNatLab, natLabUnavailableReason, type NatLab } from '../support/natLab';
import type { LabFigures, LabPeerCommand, LabPeerEvent } from '../support/labIcePeer';

// Internet paths in a small internet of namespaces (tests/support/natLab.ts): ICE (werift-ice) with coturn's
// STUN and TURN, the secure socket, and a real Server and Client (native) of ours over each path.
const skip = natLabUnavailableReason();
const MESSAGES = 500;

let lab: NatLab;
const peers: LabPeer[] = [];
const figures: { name: string; kind: string; gatherMs: number; setupMs: number; measured: LabFigures }[] = [];

beforeAll(async () => {
  if (skip) return;
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
  });
}, 30_000);

afterAll(async () => {
  for (const peer of peers) peer.kill();
  await lab?.destroy();
  if (figures.length > 0) printFigures();
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
  const child = lab.spawnIn(player, process.execPath, ['--import', 'tsx', 'tests/support/labIcePeer.ts']);
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
  turn?: 'valid' | 'expired' | 'none';
  connectTimeoutSeconds?: number;
}

/** Starts host and guest, swaps their offers through the test (as the rendezvous would), waits for both paths. */
async function connectPair(hostPlayer: string, guestPlayer: string, options: PathOptions = {}) {
  const turnMode = options.turn ?? 'valid';
  const stun = { host: lab.turn.host, port: lab.turn.port };
  const turnFor = (id: string) => {
    if (turnMode === 'none') return undefined;
    const nowSeconds = Date.now() / 1000;
    const minted =
      turnMode === 'expired'
        ? mintTurnCredentials(lab.turn.secret, id, 60, nowSeconds - 3600)
        : mintTurnCredentials(lab.turn.secret, id, 600, nowSeconds);
    return { host: lab.turn.host, port: lab.turn.port, username: minted.username, password: minted.password };
  };
  const host = spawnPeer(hostPlayer);
  const guest = spawnPeer(guestPlayer);
  const connectTimeoutSeconds = options.connectTimeoutSeconds ?? 10;
  const roomId = `room-${hostPlayer}-${guestPlayer}`;
  host.send({ cmd: 'start', role: 'host', roomId, stun, turn: turnFor('host'), connectTimeoutSeconds });
  guest.send({ cmd: 'start', role: 'guest', roomId, stun, turn: turnFor('guest'), connectTimeoutSeconds });
  const [hostOffer, guestOffer] = await Promise.all([host.next('offer'), guest.next('offer')]);
  if (hostOffer.ev !== 'offer' || guestOffer.ev !== 'offer') throw new Error('gathering failed');
  host.send({ cmd: 'answer', ice: guestOffer.ice, publicKey: guestOffer.publicKey, ufrag: guestOffer.ufrag });
  guest.send({ cmd: 'answer', ice: hostOffer.ice, publicKey: hostOffer.publicKey, ufrag: hostOffer.ufrag });
  const waitMs = (connectTimeoutSeconds + 10) * 1000;
  const [hostPath, guestPath] = await Promise.all([host.next('path', waitMs), guest.next('path', waitMs)]);
  return { host, guest, hostPath, guestPath, gatherMs: Math.max(hostOffer.gatherMs, guestOffer.gatherMs) };
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

async function measure(name: string, pair: Awaited<ReturnType<typeof connectPair>>) {
  if (pair.guestPath.ev !== 'path') return;
  pair.guest.send({ cmd: 'measure', pings: 100, bulkMessages: 2000, bulkBytes: 1000 });
  const result = await pair.guest.next('measured', 40_000);
  if (result.ev !== 'measured') throw new Error('measurement failed');
  figures.push({
    name,
    kind: pair.guestPath.path.kind,
    gatherMs: pair.gatherMs,
    setupMs: pair.guestPath.path.setupMs,
    measured: result.figures,
  });
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
    await measure('eim ↔ eim', pair);
  }, 60_000);

  it('both behind symmetric NATs: relayed, 500 reliable messages each way intact', async () => {
    const pair = await connectPair('s1', 's2');
    expectPath(pair, 'relayed');
    await exchange(pair);
    await measure('sym ↔ sym', pair);
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

  it('symmetric NATs and no TURN: the clear "no relay" error on both sides', async () => {
    const pair = await connectPair('s1', 's2', { turn: 'none', connectTimeoutSeconds: 3 });
    for (const side of [pair.hostPath, pair.guestPath]) {
      expect(side).toMatchObject({ ev: 'failed', failure: 'no-relay' });
      if (side.ev === 'failed')
        expect(side.message).toMatch(/^host behind a network that blocks UDP and no relay configured/);
    }
  }, 60_000);

  it('expired TURN credentials: the clear "credentials refused (expired)" error', async () => {
    const pair = await connectPair('s1', 's2', { turn: 'expired', connectTimeoutSeconds: 3 });
    for (const side of [pair.hostPath, pair.guestPath]) {
      expect(side).toMatchObject({ ev: 'failed', failure: 'relay-failed' });
      if (side.ev === 'failed') expect(side.message).toMatch(/refused the credentials \(they expired\)/);
    }
  }, 60_000);
});

function printFigures(): void {
  const rows = figures.map((f) => {
    const m = f.measured;
    return `${f.name.padEnd(10)} ${f.kind.padEnd(8)} gather ${f.gatherMs.toFixed(0).padStart(5)} ms  setup ${f.setupMs
      .toFixed(0)
      .padStart(5)} ms  rtt raw ${m.rawRttMs.toFixed(3)} ms / stack ${m.stackRttMs.toFixed(3)} ms  throughput raw ${(
      m.rawBytesPerSecond / 1e6
    ).toFixed(2)} MB/s / stack ${(m.stackBytesPerSecond / 1e6).toFixed(2)} MB/s`;
  });
  const direct = figures.find((f) => f.kind === 'direct')?.measured;
  const relayed = figures.find((f) => f.kind === 'relayed')?.measured;
  if (direct && relayed) {
    // The extra hop's own cost: what the relay adds to bare datagrams on the same ICE sockets.
    const hopRtt = relayed.rawRttMs - direct.rawRttMs;
    const stackRtt = relayed.stackRttMs - direct.stackRttMs;
    rows.push(
      `relay adds to RTT: stack +${stackRtt.toFixed(3)} ms vs raw +${hopRtt.toFixed(3)} ms (hop's own cost); ` +
        `relayed/direct RTT: stack ×${(relayed.stackRttMs / direct.stackRttMs).toFixed(2)}, raw ×${(relayed.rawRttMs / direct.rawRttMs).toFixed(2)}; ` +
        `relayed/direct throughput: stack ×${(relayed.stackBytesPerSecond / direct.stackBytesPerSecond).toFixed(2)}, raw ×${(
          relayed.rawBytesPerSecond / direct.rawBytesPerSecond
        ).toFixed(2)}`,
    );
  }
  console.log(`\ninternet path figures (NAT lab, same run):\n${rows.join('\n')}\n`);
}
