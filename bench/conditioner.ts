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
 * Counts the datagrams reaching `sink` and lets the pump sleep until enough have: waiting on the arrivals instead of
 * polling (a setImmediate loop) keeps the pump off the CPU, which a relay on another thread needs on a 2-core box.
 */
function arrivals(sink: Socket): { readonly count: number; until(count: number): Promise<boolean> } {
  let received = 0;
  let wanted = Infinity;
  let wake: (() => void) | undefined;
  sink.on('message', () => {
    if (++received >= wanted) wake?.();
  });
  return {
    get count() {
      return received;
    },
    /** Resolves true once `count` have arrived, false after STALL_MS without a new one (the rest were lost). */
    until(count) {
      if (received >= count) return Promise.resolve(true);
      return new Promise((resolve) => {
        let seen = received;
        const finish = (arrived: boolean): void => {
          clearInterval(watchdog);
          wanted = Infinity;
          wake = undefined;
          resolve(arrived);
        };
        const watchdog = setInterval(() => {
          if (received === seen) finish(false);
          seen = received;
        }, STALL_MS);
        wanted = count;
        wake = () => finish(true);
      });
    },
  };
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
  const received = arrivals(sink);
  let sent = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  while (performance.now() - start < RUN_MS) {
    for (let i = 0; i < WINDOW; i++) sender.send(PAYLOAD);
    sent += WINDOW;
    // Lost datagrams never arrive: after a stall, carry on with a fresh window.
    if (!(await received.until(sent - WINDOW))) sent = received.count + WINDOW;
  }
  const elapsed = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  sender.close();
  const n = received.count;
  return { perSecond: n / elapsed, cpuMicros: (used.user + used.system) / Math.max(1, n) };
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
