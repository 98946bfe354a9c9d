import type { BenchResult } from './benchResult';
import { createSocket, type Socket } from 'node:dgram';
import type { Conditioner } from '../main/conditioner/conditioner';
import { LinkConditioner, type LinkConditionerOptions } from '../main/conditioner/linkConditioner';
import { WorkerConditioner } from '../main/conditioner/workerConditioner';
import { LinkModel } from '../main/conditioner/linkModel';
import { resolveLinkProfile } from '../main/conditioner/linkProfile';
import { SeededRandom } from '../shared/random/prng';

const PAYLOAD = Buffer.alloc(64, 0x61);
const WINDOW = 128;
const RUN_MS = 1_200;
const STALL_MS = 20;

const immediate = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function bound(socket: Socket): Promise<number> {
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket.address().port;
}

interface Rate {
  perSecond: number;
  /** Process CPU time (user + system) per datagram received, in microseconds. */
  cpuMicros: number;
}

/**
 * Sends windows of datagrams to `port` and counts what reaches `sink`, keeping at most two windows in flight so
 * socket buffers never overflow; datagrams lost anyway only cost a short stall. Returns datagrams/s received.
 */
async function pump(port: number, sink: Socket): Promise<Rate> {
  const sender = createSocket('udp4');
  await bound(sender);
  // Connected, so the sender skips per-datagram address handling and measures the path, not the client.
  await new Promise<void>((resolve) => sender.connect(port, '127.0.0.1', resolve));
  let received = 0;
  sink.on('message', () => received++);
  let sent = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  while (performance.now() - start < RUN_MS) {
    for (let i = 0; i < WINDOW; i++) sender.send(PAYLOAD);
    sent += WINDOW;
    let lastProgress = performance.now();
    let seen = received;
    while (received < sent - WINDOW) {
      await immediate();
      if (received !== seen) {
        seen = received;
        lastProgress = performance.now();
      } else if (performance.now() - lastProgress > STALL_MS) {
        sent = received + WINDOW; // the rest were lost; carry on with a fresh window
        break;
      }
    }
  }
  const elapsed = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  sender.close();
  return { perSecond: received / elapsed, cpuMicros: (used.user + used.system) / Math.max(1, received) };
}

async function rawRate(): Promise<Rate> {
  const sink = createSocket('udp4');
  const port = await bound(sink);
  try {
    return await pump(port, sink);
  } finally {
    sink.close();
  }
}

async function relayedRate(start: (options: LinkConditionerOptions) => Promise<Conditioner>): Promise<Rate> {
  const sink = createSocket('udp4');
  const port = await bound(sink);
  const relay = await start({ target: { host: '127.0.0.1', port } });
  try {
    return await pump(relay.address.port, sink);
  } finally {
    await relay.close();
    sink.close();
  }
}

/** Decisions/s of the pure model with every impairment on (no sockets): the ceiling the model itself sets. */
function modelRate(): number {
  const profile = resolveLinkProfile({
    loss: 0.02,
    burstEnter: 0.01,
    latencyMs: 30,
    jitterMs: 10,
    duplicate: 0.01,
    reorder: 0.01,
    bandwidthKbps: 100_000,
  });
  const model = new LinkModel(profile, new SeededRandom(1));
  const n = 1_000_000;
  const start = performance.now();
  for (let i = 0; i < n; i++) model.decide(200, i * 0.01);
  return n / ((performance.now() - start) / 1000);
}

/**
 * Datagrams/s through the conditioner with impairments off, against raw loopback dgram in the same run: the relay
 * as deployed (WorkerConditioner, its own thread; the goal figure, issue 20: ≥ 0.8×) and the in-thread one, whose
 * receive + send share the sender's and receiver's event loop. Raw is measured before and after and averaged, so
 * load that drifts during the run (a shared machine) skews the ratios less.
 */
export async function benchConditioner(): Promise<BenchResult[]> {
  const rawBefore = await rawRate();
  const worker = await relayedRate((o) => WorkerConditioner.start(o));
  const inThread = await relayedRate((o) => LinkConditioner.start(o));
  const rawAfter = await rawRate();
  const raw: Rate = {
    perSecond: (rawBefore.perSecond + rawAfter.perSecond) / 2,
    cpuMicros: (rawBefore.cpuMicros + rawAfter.cpuMicros) / 2,
  };
  const round = (x: number, digits = 0) => Number(x.toFixed(digits));
  return [
    {
      name: 'dgram loopback, raw (64 B, same process; mean of a run before and after the relays)',
      value: round(raw.perSecond),
      unit: 'datagrams/s',
      higherIsBetter: true,
    },
    {
      name: 'GOAL ≥ 0.8×: through the conditioner as deployed, worker thread, impairments off (64 B)',
      value: round(worker.perSecond),
      unit: 'datagrams/s',
      baseline: round(raw.perSecond),
      higherIsBetter: true,
    },
    {
      name: 'through the in-thread conditioner (relay on the sender’s event loop), impairments off (64 B)',
      value: round(inThread.perSecond),
      unit: 'datagrams/s',
      baseline: round(raw.perSecond),
      higherIsBetter: true,
    },
    {
      name: 'CPU per datagram through the worker conditioner (sender + relay + receiver, all threads)',
      value: round(worker.cpuMicros, 2),
      unit: 'µs/datagram',
      baseline: round(raw.cpuMicros, 2),
      higherIsBetter: false,
    },
    {
      name: 'CPU per datagram through the in-thread conditioner',
      value: round(inThread.cpuMicros, 2),
      unit: 'µs/datagram',
      baseline: round(raw.cpuMicros, 2),
      higherIsBetter: false,
    },
    {
      name: 'link model decisions, all impairments on (no sockets)',
      value: round(modelRate()),
      unit: 'decisions/s',
      higherIsBetter: true,
    },
  ];
}
