import { afterAll, describe, expect, it } from 'vitest';
import { Channel, Client, Server, type Peer } from '../../main/net/index';
import { LinkConditioner } from '../../main/net/conditioner/linkConditioner';
import type { LinkProfile } from '../../main/net/conditioner/linkProfile';
import { DeliveryLog } from '../support/labDeliveryLog';
import { clientConnection } from '../support/labInspect';
import { sleep, waitFor } from '../support/waitFor';

// Reliable messages in total, over both reliable channels, both directions and every client. v1 keeps at most
// 33 sequences in flight per channel, so this is bounded by round trips, not CPU: ~2,500 per stream ≈ 15 s.
const MESSAGES = Number(process.env.LAB_SOAK_MESSAGES ?? 20_000);
const CLIENTS = Number(process.env.LAB_SOAK_CLIENTS ?? 2);
const UNRELIABLE = Number(process.env.LAB_SOAK_UNRELIABLE ?? 1_000); // per client and direction
const SEED = Number(process.env.LAB_SOAK_SEED ?? 7);
const PER_STREAM = Math.ceil(MESSAGES / (4 * CLIENTS));
const LOSS = 0.2;
/** Default each direction 20 ± 10 ms, so 40 ± 20 ms round trip. Jitter keeps FIFO order; `reorder` reorders. */
const PROFILE: Partial<LinkProfile> = {
  loss: LOSS,
  duplicate: 0.05,
  reorder: 0.05,
  reorderDelayMs: 20,
  latencyMs: Number(process.env.LAB_SOAK_LATENCY_MS ?? 20),
  jitterMs: Number(process.env.LAB_SOAK_JITTER_MS ?? 10),
};

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Every stream of one client: reliable ordered/unordered and unreliable, each way. */
function logs() {
  return {
    up: { ro: new DeliveryLog(), ru: new DeliveryLog(), ur: new DeliveryLog() },
    down: { ro: new DeliveryLog(), ru: new DeliveryLog(), ur: new DeliveryLog() },
  };
}

const reliableDone = (l: ReturnType<typeof logs>) =>
  [l.up.ro, l.up.ru, l.down.ro, l.down.ru].every((log) => log.length >= PER_STREAM);

describe('soak: reliable channels through the LinkConditioner (20% loss, 5% dup, reorder, 40±20 ms RTT)', () => {
  it(
    `${(PER_STREAM * 4 * CLIENTS).toLocaleString('en-US')} reliable messages: none lost, duplicated or out of order`,
    async () => {
      const server = await Server.listen({ port: 0, host: '127.0.0.1' });
      cleanups.push(() => server.close());
      const conditioner = await LinkConditioner.start({
        target: { host: '127.0.0.1', port: server.port },
        upstream: PROFILE,
        downstream: PROFILE,
        seed: SEED,
      });
      cleanups.push(() => conditioner.close());
      const disconnects: string[] = [];
      server.onDisconnect((p, reason) => disconnects.push(`server/${p.id}: ${reason}`));
      const byPeer = new Map<number, ReturnType<typeof logs>>();
      const record = (peer: Peer, stream: 'ro' | 'ru' | 'ur', i: unknown) => byPeer.get(peer.id)?.up[stream].record(i);
      server.onMessage('ro', (p, m) => record(p, 'ro', m.i));
      server.onMessage('ru', (p, m) => record(p, 'ru', m.i));
      server.onMessage('ur', (p, m) => record(p, 'ur', m.i));

      const clients: Array<{ client: Client; peerId: number; logs: ReturnType<typeof logs> }> = [];
      for (let k = 0; k < CLIENTS; k++) {
        const client = new Client();
        cleanups.push(() => client.close());
        const l = logs();
        client.onMessage('ro', (m) => l.down.ro.record(m.i));
        client.onMessage('ru', (m) => l.down.ru.record(m.i));
        client.onMessage('ur', (m) => l.down.ur.record(m.i));
        client.onDisconnect((reason) => disconnects.push(`client ${k}: ${reason}`));
        await client.connect('127.0.0.1', conditioner.address.port, { timeout: 10 });
        byPeer.set(client.peerId!, l);
        clients.push({ client, peerId: client.peerId!, logs: l });
      }

      const started = performance.now();
      // Both reliable channels, both directions, every client at once: the senders' queues feed their windows.
      for (let i = 0; i < PER_STREAM; i++) {
        for (const { client, peerId } of clients) {
          client.send('ro', { i }, Channel.RELIABLE_ORDERED);
          client.send('ru', { i }, Channel.RELIABLE_UNORDERED);
          server.sendTo(peerId, 'ro', { i }, Channel.RELIABLE_ORDERED);
          server.sendTo(peerId, 'ru', { i }, Channel.RELIABLE_UNORDERED);
        }
      }
      // Unreliable alongside, paced so only the link (never a socket buffer) loses datagrams.
      for (let i = 0; i < UNRELIABLE; i += 4) {
        for (let j = i; j < Math.min(i + 4, UNRELIABLE); j++) {
          for (const { client, peerId } of clients) {
            client.send('ur', { i: j });
            server.sendTo(peerId, 'ur', { i: j });
          }
        }
        await sleep(10);
      }
      await waitFor(() => clients.every((c) => reliableDone(c.logs)), MESSAGES * 2.5, 'reliable delivery');
      const seconds = (performance.now() - started) / 1000;
      await sleep(300); // late duplicates and retransmissions would show up now

      const clean = { delivered: PER_STREAM, lost: 0, duplicated: 0, outOfOrder: 0, foreign: 0 };
      const ordered = clients.flatMap(({ logs: l }) => [l.up.ro, l.down.ro].map((log) => log.tally(PER_STREAM)));
      expect(ordered).toEqual(ordered.map(() => clean));
      // RELIABLE_UNORDERED: the same, except that it does not hold early arrivals back (so order varies).
      const unordered = clients.flatMap(({ logs: l }) => [l.up.ru, l.down.ru].map((log) => log.tally(PER_STREAM)));
      expect(unordered).toEqual(unordered.map(() => ({ ...clean, outOfOrder: expect.any(Number) })));
      expect(unordered.some((t) => t.outOfOrder > 0)).toBe(true);
      expect(disconnects).toEqual([]);
      expect(clients.every((c) => c.client.state === 'connected')).toBe(true);

      // Unreliable: what the transport delivers once is what the link let through (duplicates are v1's to pass on).
      const unreliable = (dir: 'up' | 'down') => {
        const distinct = clients.reduce((n, c) => n + c.logs[dir].ur.distinct(UNRELIABLE), 0);
        return 1 - distinct / (UNRELIABLE * CLIENTS);
      };
      const lossUp = unreliable('up');
      const lossDown = unreliable('down');
      const stats = conditioner.stats();
      const connections = clients.map((c) => clientConnection(c.client)!);
      console.log(
        `[lab soak] ${PER_STREAM * 4 * CLIENTS} reliable in ${seconds.toFixed(1)} s (seed ${SEED}); unreliable loss ` +
          `up ${(lossUp * 100).toFixed(1)}% down ${(lossDown * 100).toFixed(1)}%; retransmits ` +
          `${connections.map((c) => c.counters.retransmits).join('/')}; link up ${JSON.stringify(stats.upstream)}`,
      );
      expect(Math.abs(lossUp - LOSS)).toBeLessThan(0.05);
      expect(Math.abs(lossDown - LOSS)).toBeLessThan(0.05);
      expect(Math.abs((lossUp + lossDown) / 2 - LOSS)).toBeLessThan(0.03);
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
    Math.max(55_000, MESSAGES * 3),
  );
});
