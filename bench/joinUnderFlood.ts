import type { BenchResult } from './benchResult';
import { connectFloodSources, startFlood } from '../tests/support/labFloodWorker';
import { loopbackGuest, loopbackHost, type Cleanups } from '../tests/support/loopbackRoom';
import { percentile } from './percentile';

/** Joins measured each way; each is a fresh native client on 127.0.0.1. */
const JOINS = 9;
/** The hostile-lobby lab's flood: 1,024 forged 127.40.x.y sources, half v1 requests, half native offers. */
const SOURCES = 1024;
const GAP_MS = 30;
/** The flood runs this long before the first join: the host's queue and JIT reach their steady state. */
const SETTLE_MS = 1500;

async function joinMs(port: number, name: string): Promise<number> {
  const leave: Cleanups = [];
  const started = performance.now();
  try {
    await loopbackGuest(leave, port, name, { timeout: 5 });
    return performance.now() - started;
  } catch {
    return Infinity; // counted as a failed join
  } finally {
    for (const c of leave) await c();
  }
}

async function joins(port: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < JOINS; i++) times.push(await joinMs(port, `Guest ${i + 1}`));
  return times;
}

/**
 * How long a lobby guest (native) takes to get into a LobbyHost (default connect limits) on 127.0.0.1 while 1,024 forged
 * loopback sources flood it with connect requests from a worker thread (~34k requests/s offered), against the
 * same joins without a flood, same run. This was a timed assertion of the hostile-lobby lab (≤ 1 s); the time is
 * the machine's, so it is measured here.
 */
export async function benchJoinUnderFlood(): Promise<BenchResult[]> {
  // Bound to 127.0.0.1, discovery off; room for every join (each guest leaves before the next, but a slot may linger).
  const closeHost: Cleanups = [];
  const host = await loopbackHost(closeHost, { capacity: 16 });
  const counters = host.transport.counters;
  try {
    const quiet = await joins(host.port);
    // Bounded: at most ~60 s of rounds even if stop() were never reached.
    const flood = await startFlood(host.port, connectFloodSources(SOURCES, 40), GAP_MS, 2000);
    const floodStarted = performance.now();
    let flooded: number[];
    let rounds: number;
    const readBefore = counters.datagramsReceived;
    try {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      flooded = await joins(host.port);
    } finally {
      rounds = (await flood.stop()).rounds;
    }
    const seconds = (performance.now() - floodStarted) / 1000;
    const offered = (rounds * SOURCES) / seconds;
    const read = (counters.datagramsReceived - readBefore) / seconds;
    const failed = flooded.filter((t) => t === Infinity).length;
    const p = (times: number[], q: number) => percentile(times, q);
    return [
      {
        name: `lobby join, median of ${JOINS}, under the flood`,
        value: p(flooded, 50),
        unit: 'ms',
        baseline: p(quiet, 50),
      },
      {
        name: `lobby join, slowest of ${JOINS}, under the flood`,
        value: p(flooded, 100),
        unit: 'ms',
        baseline: p(quiet, 100),
      },
      { name: `joins that failed within 5 s, under the flood`, value: failed, unit: `of ${JOINS}` },
      { name: 'flood offered (requests/s)', value: offered, unit: '/s' },
      {
        name: 'datagrams the server read (/s, the rest overflowed its socket)',
        value: read,
        unit: '/s',
        baseline: offered,
      },
    ];
  } finally {
    for (const c of closeHost) await c();
  }
}
