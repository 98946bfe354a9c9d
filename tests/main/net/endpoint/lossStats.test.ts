import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Client, Server } from '../../../../main/net/index';
import { LinkConditioner } from '../../../../main/conditioner/linkConditioner';
import { waitFor } from '../../../support/waitFor';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const MESSAGES = 3000;
const PER_TICK = 10;
// Near a full datagram: each reliable transmission is its own datagram on both protocols, so the
// outcomes are independent draws of the conditioner's loss and the estimate converges quickly.
const PAD = 'x'.repeat(900);

/** Sends MESSAGES reliable messages client → server through a conditioner losing `loss` upstream only. */
async function measure(protocol: 'v1' | 'native', loss: number, seed: number) {
  const native = protocol === 'v1' ? ({ native: false } as const) : {};
  const server = await Server.listen({ port: 0, host: '127.0.0.1', ...native });
  cleanups.push(() => server.close());
  const relay = await LinkConditioner.start({
    target: { host: '127.0.0.1', port: server.port },
    upstream: { loss, latencyMs: 5 },
    downstream: { latencyMs: 5 },
    seed,
  });
  cleanups.push(() => relay.close());
  const received = new Set<number>();
  server.onMessage('n', (_peer, m) => received.add(m.i as number));
  const client = new Client(native);
  cleanups.push(() => client.close());
  await client.connect('127.0.0.1', relay.address.port, { timeout: 5 });
  // The sender's `loss` is a sliding window (LossWindow: 10 buckets of 0.5 s), so a run a busy machine stretched past
  // it reads only its last 4.5-5 s: the resends not needed are counted over those seconds too (samples every 100 ms).
  const samples: Array<{ at: number; retransmits: number; dropped: number; received: number }> = [];
  const sample = () => {
    const up = relay.stats().upstream;
    samples.push({
      at: performance.now(),
      retransmits: client.stats()?.retransmits ?? 0,
      dropped: up.dropped,
      received: up.received,
    });
  };
  sample();
  const sampler = setInterval(sample, 100);
  cleanups.push(() => clearInterval(sampler));
  let next = 0;
  const pump = setInterval(() => {
    for (let k = 0; k < PER_TICK && next < MESSAGES; k++) {
      client.send('n', { i: next++, pad: PAD }, Channel.RELIABLE_UNORDERED);
    }
  }, 5);
  cleanups.push(() => clearInterval(pump));
  await waitFor(() => received.size === MESSAGES, 30_000, `${MESSAGES} messages over ${protocol}`);
  await waitFor(() => client.stats()?.pendingReliable === 0, 10_000, 'every ack');
  clearInterval(sampler);
  sample();
  const stats = client.stats()!;
  const end = samples.at(-1)!;
  // Resends beyond what the link dropped were not needed: the client resent before the ack was read. Over the whole
  // run and over the window's shortest and longest span before the end; the largest share bounds the window's.
  const since = (from: (typeof samples)[number]) =>
    Math.max(0, end.retransmits - from.retransmits - (end.dropped - from.dropped)) /
    Math.max(1, end.received - from.received);
  const startOf = (seconds: number) => samples.find((s) => s.at >= end.at - seconds * 1000) ?? samples[0]!;
  const spurious = Math.max(since(samples[0]!), since(startOf(4.5)), since(startOf(5)));
  console.log(
    `[loss] ${protocol} at ${loss}: the link dropped ${end.dropped} of ${end.received}; the sender reads ` +
      `${stats.loss.toFixed(4)} after ${stats.retransmits} retransmits (${spurious.toFixed(4)} of datagrams not needed)`,
  );
  expect(client.protocol).toBe(protocol);
  return { ...stats, serverIn: server.getPeers()[0]!.stats().lossIn, spurious };
}

describe('stats().loss and lossIn through the link conditioner: the fraction of datagrams lost each way', () => {
  for (const protocol of ['v1', 'native'] as const) {
    for (const [loss, seed] of [
      [0, 11],
      [0.1, 12],
      [0.2, 13],
    ] as const) {
      it(`${protocol}: reads ${loss} within 2 points at ${loss * 100}% upstream loss`, async () => {
        const stats = await measure(protocol, loss, seed);
        if (protocol === 'v1') {
          // v1 datagrams carry no number to count gaps by: receive loss is unknown, on both sides.
          expect(stats.lossIn).toBeUndefined();
          expect(stats.serverIn).toBeUndefined();
        } else {
          // The server reads the loss of what the client sent it; the client's own downstream was clean.
          expect(stats.serverIn).toBeGreaterThanOrEqual(loss - 0.02);
          expect(stats.serverIn).toBeLessThanOrEqual(loss + 0.02);
          expect(stats.lossIn).toBeLessThanOrEqual(0.02);
        }
        // The exact per-direction figure on native is the receiver's count of packet-number gaps (lossIn, ±2
        // points above). The sender's own `loss` is an estimate from acks that leaves out retransmissions it judged
        // spurious; on a loaded 2-core CI machine it read 17.7% at 20% once, so it gets ±3 points there.
        // v1 cannot tell a late ack from a loss, so a resend that was not needed counts as one (see NetStats.loss).
        // Client, relay and server share this process: starved by a busy machine past the RTO, its timers run before
        // the acks waiting in the socket are read, and it resends what was not lost (v1 read 6% at 0% link loss that
        // way). Such resends are counted (retransmits beyond the link's drops) and allowed above the bound, no more:
        // on an idle machine there are none and the bound is the plain ±2 (±3) points.
        const slack = protocol === 'native' ? 0.03 : 0.02;
        expect(stats.loss).toBeGreaterThanOrEqual(loss - slack);
        expect(stats.loss).toBeLessThanOrEqual(loss + slack + stats.spurious);
        if (loss > 0) expect(stats.retransmits).toBeGreaterThan(MESSAGES * loss * 0.5);
      }, 45_000);
    }
  }
});
