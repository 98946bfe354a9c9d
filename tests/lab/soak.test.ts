import { afterAll, describe, expect, it } from 'vitest';
import { Channel, Client, Server, type ConnectionStats, type Peer } from '../../main/net/index';
import { WorkerConditioner } from '../../bench/workerConditioner/workerConditioner';
import type { LinkProfile } from '../../main/conditioner/linkProfile';
import type { KitProtocol } from '../support/endpoints';
import { DeliveryLog } from '../support/labDeliveryLog';
import { clientConnection } from '../support/labInspect';
import { BigMessages } from '../support/labBigMessages';
import { seededRandom } from '../support/seededRandom';
import { sleep } from '../support/waitFor';

// Reliable messages in total, over both reliable channels, both directions and every client. v1 keeps at most
// 33 sequences in flight per channel, so it is bounded by round trips, not CPU: 8,000 take ≈ 7 s. Native keeps
// up to 4096 in flight (within the receiver's advertised window) and packs many per datagram: 20,000 take ≈ 4 s,
// 200 KB messages included.
const MESSAGES: Record<KitProtocol, number> = {
  v1: Number(process.env.LAB_SOAK_MESSAGES ?? 8_000),
  native: Number(process.env.LAB_SOAK_MESSAGES ?? 20_000),
};
const CLIENTS = Number(process.env.LAB_SOAK_CLIENTS ?? 2);
const UNRELIABLE = Number(process.env.LAB_SOAK_UNRELIABLE ?? 1_000); // per client and direction
const SEED = Number(process.env.LAB_SOAK_SEED ?? 7);
/** Native only: 200 KB reliable messages per client and direction, alternating ordered and unordered. */
const BIG = Number(process.env.LAB_SOAK_BIG ?? 3);
const BIG_BYTES = 200_000;
const LOSS = 0.2;
const REORDER = 0.05;
/** Default each direction 20 ± 10 ms, so 40 ± 20 ms round trip. Jitter keeps FIFO order; `reorder` reorders. */
const PROFILE: Partial<LinkProfile> = {
  loss: LOSS,
  duplicate: 0.05,
  reorder: REORDER,
  reorderDelayMs: 20,
  latencyMs: Number(process.env.LAB_SOAK_LATENCY_MS ?? 20),
  jitterMs: Number(process.env.LAB_SOAK_JITTER_MS ?? 10),
};

/**
 * The endpoints' `timeout`, as long as the progress bound below (STALL_MS): seconds of silence before a peer is
 * dropped, and the least age of a message unacknowledged after its last attempt before the link counts as stuck.
 * This file checks what is delivered; on a loaded machine this loop and the conditioner's worker get a fraction of
 * a core, so 5 s without a datagram, or ten retransmissions in 5 s whose acks wait unread, is the machine's, not
 * the protocol's (both were seen at load ~9 on the default 5 s; the default, and a peer surviving a stalled loop:
 * tests/main/net/v1/stalledEventLoop.test.ts). Any disconnect still fails the test, and a message that is never
 * delivered stops progress and fails it at STALL_MS.
 */
const SILENCE_TIMEOUT_S = 30;
const STALL_MS = SILENCE_TIMEOUT_S * 1000;

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Every stream of one client: reliable ordered/unordered, unreliable and big messages, each way. */
function logs() {
  const side = () => ({ ro: new DeliveryLog(), ru: new DeliveryLog(), ur: new DeliveryLog(), big: new DeliveryLog() });
  return { up: side(), down: side() };
}
type Logs = ReturnType<typeof logs>;

/** Reliable messages delivered so far, every stream of every client. */
const delivered = (clients: ReadonlyArray<{ logs: Logs }>) => () =>
  clients.reduce(
    (sum, { logs: l }) =>
      sum + [l.up.ro, l.up.ru, l.down.ro, l.down.ru, l.up.big, l.down.big].reduce((n, log) => n + log.length, 0),
    0,
  );

/**
 * Waits until `done`, failing once `progress` has not moved for `stallMs`; the error shows `where()` as it was when
 * delivery last moved and as it is now, so a stall says which streams stuck and whether anything still moved below.
 */
async function untilStalled(
  done: () => boolean,
  progress: () => number,
  stallMs: number,
  where: () => unknown,
): Promise<void> {
  let last = progress();
  let movedAt = Date.now();
  let before = where();
  while (!done()) {
    const now = progress();
    if (now !== last) [last, movedAt, before] = [now, Date.now(), where()];
    if (Date.now() - movedAt > stallMs) {
      const state = JSON.stringify({ when_delivery_last_moved: before, now: where() });
      throw new Error(`reliable delivery stuck at ${now} messages for ${stallMs} ms: ${state}`);
    }
    await sleep(20);
  }
}

/** What a stall report shows of one connection. */
const health = (s: ConnectionStats | undefined) =>
  s && {
    rtt: s.rtt,
    loss: s.loss,
    retransmits: s.retransmits,
    spurious: s.spuriousRetransmits,
    pending: s.pendingReliable,
    dropped: s.dropped,
    sentPerSecond: s.packetsSentPerSecond,
    receivedPerSecond: s.packetsReceivedPerSecond,
  };

describe.each(['v1', 'native'] as const)('soak (%s): through the link conditioner (WorkerConditioner)', (protocol) => {
  const native = protocol === 'v1' ? ({ native: false } as const) : {};
  const perStream = Math.ceil(MESSAGES[protocol] / (4 * CLIENTS));
  const big = protocol === 'native' ? BIG : 0;
  // v1 has no sequenced channel (it would travel as UNRELIABLE); native's must never deliver out of order.
  const unreliable = protocol === 'native' ? Channel.UNRELIABLE_SEQUENCED : Channel.UNRELIABLE;
  const reliableDone = (l: Logs) =>
    [l.up.ro, l.up.ru, l.down.ro, l.down.ru].every((log) => log.length >= perStream) &&
    l.up.big.length >= big &&
    l.down.big.length >= big;

  it(
    `20% loss, 5% dup, reorder, 40±20 ms RTT: ${(perStream * 4 * CLIENTS).toLocaleString('en-US')} reliable ` +
      `messages${big ? ` and ${big * 2 * CLIENTS} of 200 KB` : ''}: none lost, duplicated or out of order`,
    async () => {
      const server = await Server.listen({ port: 0, host: '127.0.0.1', timeout: SILENCE_TIMEOUT_S, ...native });
      cleanups.push(() => server.close());
      const conditioner = await WorkerConditioner.start({
        target: { host: '127.0.0.1', port: server.port },
        upstream: PROFILE,
        downstream: PROFILE,
        seed: SEED,
      });
      cleanups.push(() => conditioner.close());
      const bigs = new BigMessages(BIG_BYTES, seededRandom(SEED));
      const disconnects: string[] = [];
      server.onDisconnect((p, reason) => disconnects.push(`server/${p.id}: ${reason}`));
      const byPeer = new Map<number, Logs>();
      const record = (peer: Peer, stream: keyof Logs['up'], i: unknown) => byPeer.get(peer.id)?.up[stream].record(i);
      server.onMessage('ro', (p, m) => record(p, 'ro', m.i));
      server.onMessage('ru', (p, m) => record(p, 'ru', m.i));
      server.onMessage('ur', (p, m) => record(p, 'ur', m.i));
      server.onMessage('big', (p, m) => record(p, 'big', bigs.check(m)));

      // All at once: through 20% loss a handshake often needs a retry (0.5 s), native's two round trips more so.
      const clients = await Promise.all(
        Array.from({ length: CLIENTS }, async (_, k) => {
          const client = new Client({ timeout: SILENCE_TIMEOUT_S, ...native });
          cleanups.push(() => client.close());
          const l = logs();
          client.onMessage('ro', (m) => l.down.ro.record(m.i));
          client.onMessage('ru', (m) => l.down.ru.record(m.i));
          client.onMessage('ur', (m) => l.down.ur.record(m.i));
          client.onMessage('big', (m) => l.down.big.record(bigs.check(m)));
          client.onDisconnect((reason) => disconnects.push(`client ${k}: ${reason}`));
          await client.connect('127.0.0.1', conditioner.address.port, { timeout: 10 });
          byPeer.set(client.peerId!, l);
          return { client, peerId: client.peerId!, logs: l };
        }),
      );
      expect(clients.map((c) => c.client.protocol)).toEqual(clients.map(() => protocol));

      const started = performance.now();
      // Both reliable channels, both directions, every client at once: the senders' queues feed their windows.
      for (let i = 0; i < perStream; i++) {
        for (const { client, peerId } of clients) {
          client.send('ro', { i }, Channel.RELIABLE_ORDERED);
          client.send('ru', { i }, Channel.RELIABLE_UNORDERED);
          server.sendTo(peerId, 'ro', { i }, Channel.RELIABLE_ORDERED);
          server.sendTo(peerId, 'ru', { i }, Channel.RELIABLE_UNORDERED);
        }
        // The big ones amid the small ones, so fragments share the window (and datagrams) with whole messages.
        if (i === Math.floor(perStream / 2)) {
          for (let b = 0; b < big; b++) {
            const channel = b % 2 ? Channel.RELIABLE_UNORDERED : Channel.RELIABLE_ORDERED;
            for (const { client, peerId } of clients) {
              client.send('big', bigs.message(b), channel);
              server.sendTo(peerId, 'big', bigs.message(b), channel);
            }
          }
        }
      }
      // Unreliable alongside, paced so only the link (never a socket buffer) loses datagrams.
      for (let i = 0; i < UNRELIABLE; i += 4) {
        for (let j = i; j < Math.min(i + 4, UNRELIABLE); j++) {
          for (const { client, peerId } of clients) {
            client.send('ur', { i: j }, unreliable);
            server.sendTo(peerId, 'ur', { i: j }, unreliable);
          }
        }
        await sleep(10);
      }
      // Bounded by progress, not by time: how fast 20% loss is worked through is the machine's (5 s idle, 8 s with
      // the other core busy, over 80 s at load 17), but a delivery that stops moving for 30 s is stuck.
      const where = () => ({
        clients: clients.map(({ client, logs: l }) => ({
          state: client.state,
          up: [l.up.ro.length, l.up.ru.length, l.up.big.length],
          down: [l.down.ro.length, l.down.ru.length, l.down.big.length],
          client: health(client.stats()),
          server: health(
            server
              .getPeers()
              .find((p) => p.id === client.peerId)
              ?.stats(),
          ),
        })),
        link: conditioner.stats(),
        disconnects,
      });
      // A dropped connection ends the wait at once (nothing more will arrive), and says why just below.
      const finished = () => disconnects.length > 0 || clients.every((c) => reliableDone(c.logs));
      await untilStalled(finished, delivered(clients), STALL_MS, where);
      expect(disconnects).toEqual([]);
      const seconds = (performance.now() - started) / 1000;
      await sleep(300); // late duplicates and retransmissions would show up now

      const clean = { delivered: perStream, lost: 0, duplicated: 0, outOfOrder: 0, foreign: 0 };
      const ordered = clients.flatMap(({ logs: l }) => [l.up.ro, l.down.ro].map((log) => log.tally(perStream)));
      expect(ordered).toEqual(ordered.map(() => clean));
      // RELIABLE_UNORDERED: the same, except that it does not hold early arrivals back (so order varies).
      const unordered = clients.flatMap(({ logs: l }) => [l.up.ru, l.down.ru].map((log) => log.tally(perStream)));
      expect(unordered).toEqual(unordered.map(() => ({ ...clean, outOfOrder: expect.any(Number) })));
      expect(unordered.some((t) => t.outOfOrder > 0)).toBe(true);
      // The big ones: each exactly once and byte for byte (check() records -1 for a corrupted one).
      const bigTallies = clients.flatMap(({ logs: l }) => [l.up.big, l.down.big].map((log) => log.tally(big)));
      expect(bigTallies).toEqual(
        bigTallies.map(() => ({ delivered: big, lost: 0, duplicated: 0, outOfOrder: expect.any(Number), foreign: 0 })),
      );
      expect(disconnects).toEqual([]);
      expect(clients.every((c) => c.client.state === 'connected')).toBe(true);

      // Unreliable: what the transport delivers once is what the link let through.
      const unreliableLoss = (dir: 'up' | 'down') => {
        const distinct = clients.reduce((n, c) => n + c.logs[dir].ur.distinct(UNRELIABLE), 0);
        return 1 - distinct / (UNRELIABLE * CLIENTS);
      };
      const lossUp = unreliableLoss('up');
      const lossDown = unreliableLoss('down');
      const stats = conditioner.stats();
      const connections = clients.map((c) => clientConnection(c.client)!);
      const peerConnections = clients.map((c) => server.getPeer(c.peerId)!.connection);
      const stale = [...connections, ...peerConnections].reduce((n, c) => n + c.counters.dropped.stale, 0);
      console.log(
        `[lab soak ${protocol}] ${perStream * 4 * CLIENTS} reliable + ${big * 2 * CLIENTS} × 200 KB in ` +
          `${seconds.toFixed(1)} s (seed ${SEED}); unreliable loss up ${(lossUp * 100).toFixed(1)}% down ` +
          `${(lossDown * 100).toFixed(1)}%, stale ${stale}; retransmits ` +
          `${connections.map((c) => c.counters.retransmits).join('/')}; link up ${JSON.stringify(stats.upstream)}`,
      );
      if (protocol === 'v1') {
        // v1 passes duplicates on and may reorder: only the loss is the link's.
        expect(Math.abs(lossUp - LOSS)).toBeLessThan(0.05);
        expect(Math.abs(lossDown - LOSS)).toBeLessThan(0.05);
        expect(Math.abs((lossUp + lossDown) / 2 - LOSS)).toBeLessThan(0.03);
      } else {
        // UNRELIABLE_SEQUENCED: strictly increasing, never a duplicate; what was overtaken counts as lost too.
        const sequenced = clients.flatMap(({ logs: l }) => [l.up.ur, l.down.ur].map((log) => log.tally(UNRELIABLE)));
        for (const t of sequenced) expect(t).toMatchObject({ duplicated: 0, outOfOrder: 0, foreign: 0 });
        expect(stale).toBeGreaterThan(0);
        for (const loss of [lossUp, lossDown]) {
          expect(loss).toBeGreaterThan(LOSS - 0.06);
          expect(loss).toBeLessThan(LOSS + REORDER + 0.06);
        }
      }
      // The impairments really happened, and the transport really had to repair them.
      for (const dir of [stats.upstream, stats.downstream]) {
        expect(dir.drops.loss).toBeGreaterThan(0);
        expect(dir.duplicated).toBeGreaterThan(0);
        expect(dir.reordered).toBeGreaterThan(0);
      }
      for (const c of connections) {
        expect(c.counters.retransmits).toBeGreaterThan(0);
        expect(c.counters.duplicatesReceived).toBeGreaterThan(0);
      }
    },
    300_000,
  );
});
