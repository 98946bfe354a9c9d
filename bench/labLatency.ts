import { Channel, Client, Server } from '../main/net/index';
import { LinkConditioner } from '../main/conditioner/linkConditioner';
import { percentile } from './percentile';
import type { BenchResult } from './benchResult';

// Delivery latency of reliable messages through the LinkConditioner: 20 ms each way (40 ms RTT), with and
// without 10% loss per direction. Sender and receiver share this process's clock, so each sample is the
// one-way time from send() to the receiver's callback, retransmissions and head-of-line blocking included.

const PER_CHANNEL = 1_000; // per direction
const TICK_MS = 10;
const PER_TICK = 2; // per channel and direction: 200 messages/s each
const ONE_WAY_MS = 20;

type Samples = Record<'ordered' | 'unordered', number[]>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function measure(loss: number): Promise<Samples> {
  const server = await Server.listen({ port: 0, host: '127.0.0.1' });
  const link = { latencyMs: ONE_WAY_MS, loss };
  const conditioner = await LinkConditioner.start({
    target: { host: '127.0.0.1', port: server.port },
    upstream: link,
    downstream: link,
    seed: 11,
  });
  const client = new Client();
  const samples: Samples = { ordered: [], unordered: [] };
  const record = (channel: keyof Samples) => (m: Record<string, unknown>) =>
    samples[channel].push(performance.now() - (m.t as number));
  server.onMessage('ro', (_p, m) => record('ordered')(m));
  server.onMessage('ru', (_p, m) => record('unordered')(m));
  client.onMessage('ro', record('ordered'));
  client.onMessage('ru', record('unordered'));
  try {
    await client.connect('127.0.0.1', conditioner.address.port, { timeout: 10 });
    await sleep(1200); // a heartbeat round trip, so the retransmission timeout rests on a measured RTT
    const peer = server.getPeers()[0]!.id;
    for (let sent = 0; sent < PER_CHANNEL; sent += PER_TICK) {
      for (let k = 0; k < PER_TICK; k++) {
        const t = performance.now();
        client.send('ro', { t }, Channel.RELIABLE_ORDERED);
        client.send('ru', { t }, Channel.RELIABLE_UNORDERED);
        server.sendTo(peer, 'ro', { t }, Channel.RELIABLE_ORDERED);
        server.sendTo(peer, 'ru', { t }, Channel.RELIABLE_UNORDERED);
      }
      await sleep(TICK_MS);
    }
    const deadline = performance.now() + 15_000;
    while (samples.ordered.length + samples.unordered.length < 4 * PER_CHANNEL && performance.now() < deadline)
      await sleep(20);
    return samples;
  } finally {
    await client.close();
    await server.close();
    await conditioner.close();
  }
}

/** p50/p99 one-way delivery latency of reliable messages at 10% loss and 40 ms RTT, against 0% loss. */
export async function benchLabLatency(): Promise<BenchResult[]> {
  const clean = await measure(0);
  const lossy = await measure(0.1);
  const rows: BenchResult[] = [];
  for (const channel of ['ordered', 'unordered'] as const) {
    for (const p of [50, 99]) {
      rows.push({
        name: `reliable ${channel} delivery p${p}, 10% loss, 40 ms RTT (${lossy[channel].length} samples)`,
        value: percentile(lossy[channel], p),
        unit: 'ms',
        baseline: percentile(clean[channel], p),
        higherIsBetter: false,
      });
    }
  }
  return rows;
}
