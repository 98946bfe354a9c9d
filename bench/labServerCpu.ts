import { fork, type ChildProcess } from 'node:child_process';
import { siblingScript } from './siblingScript';
import type { BenchResult } from './benchResult';
import type { paced } from './paced';
import { rotated, roundsRow } from './rounds';
import { atMost } from './goal';

// Server CPU per datagram: one Server broadcasting 60 Hz snapshots (UNRELIABLE) to 64 Clients that live in a
// second process, against the raw floor: one dgram socket sending datagrams of the same size to 64 sockets at the
// same rate. Each sender has a process of its own (bench/labClients.ts): one sender's idle timers are not charged to
// the other, and neither's figure carries the bench's own heap (a major GC of it, ~50 ms with the earlier sections'
// modules loaded, landed in some rounds of the Server's and not others: 1.28-1.91x in one run). The size is what the
// server actually sent (native header, frame, compact JSON, tag). process.cpuUsage() of each sending process only;
// heartbeats, acks and the transport's service tick are part of the server's cost.
// The Server first runs WARMUP_SECONDS (reported as the cold figure), WARMUP_SECONDS more (reported: the window this
// bench measured before the settle period came in) and SETTLE_SECONDS unmeasured: its hot path is optimised within
// ~2-3 s, but code that runs only with heartbeats reaches TurboFan much later (`--trace-opt` still showed ~15
// optimising compiles in the 3-6 s window, worth ~2-3 µs per snapshot datagram there), and a server runs for hours.
// Then ROUNDS rounds, each one SECONDS window of either side, in rotated order; the one-line raw loop is warm at once.

const CLIENTS = 64;
/** Alternating measured windows of each side. */
const ROUNDS = 5;
const HZ = 60;
const SECONDS = 3;
const WARMUP_SECONDS = 3;
/** Unmeasured seconds between the second warm-up window and the measured one (see above). */
const SETTLE_SECONDS = 6;

/** Seconds the clients' process may take to answer a command (64 connects, a close) before the bench gives up. */
const ASK_TIMEOUT_S = 30;

/** Sends a command to the clients' process and waits (bounded) for its answer; an answer with `error` rejects. */
function ask<T>(child: ChildProcess, message: { cmd: string; [key: string]: unknown }): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onReply);
      reject(new Error(`the clients' process did not answer '${message.cmd}' within ${ASK_TIMEOUT_S} s`));
    }, ASK_TIMEOUT_S * 1000);
    const onReply = (reply: unknown) => {
      clearTimeout(timer);
      const error = (reply as { error?: string }).error;
      if (error !== undefined) reject(new Error(`the clients' process failed '${message.cmd}': ${error}`));
      else resolve(reply as T);
    };
    child.once('message', onReply);
    child.send(message);
  });
}

/** Forks a process of bench/labClients.ts (the receivers, the raw sender or the Server) and waits until it is ready. */
async function forkClients(): Promise<ChildProcess> {
  const child = fork(...siblingScript('labClients'));
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the clients' process exited (${code}) before it was ready`)));
  });
  return child;
}

/** What one paced window of a sender measured (its own CPU, ticks and seconds). */
type Paced = Awaited<ReturnType<typeof paced>>;
type Window = Paced & { received: number };

/** One measured window of `run`, with what the clients received during it. */
async function counted(child: ChildProcess, run: () => Promise<Paced>): Promise<Window> {
  await ask(child, { cmd: 'count' });
  const window = await run();
  await new Promise((r) => setTimeout(r, 100));
  const { count } = await ask<{ count: number }>(child, { cmd: 'count' });
  return { ...window, received: count };
}

/**
 * Server CPU per snapshot datagram and CPU load, 64 clients at 60 Hz, against a raw dgram sender: the Server, the raw
 * sender and the receivers each in a process of their own. After the Server's warm-up and settle period (reported,
 * not goals), ROUNDS rounds of one SECONDS window each, in rotated order; the ratio is the median of the per-round
 * ratios.
 */
export async function benchLabServerCpu(): Promise<BenchResult[]> {
  const receivers = await forkClients();
  const rawSender = await forkClients();
  const serverSide = await forkClients();
  try {
    const { port } = await ask<{ port: number }>(serverSide, { cmd: 'serve' });
    await ask(receivers, { cmd: 'clients', port, count: CLIENTS });
    await new Promise((r) => setTimeout(r, 500));
    const { size } = await ask<{ size: number }>(serverSide, { cmd: 'snapshotSize', clients: CLIENTS });
    const netRun = (seconds: number) => () => ask<Paced>(serverSide, { cmd: 'broadcast', hz: HZ, seconds });
    const warm = await netRun(WARMUP_SECONDS)();
    const early = await netRun(WARMUP_SECONDS)();
    await netRun(SETTLE_SECONDS)();
    const { ports } = await ask<{ ports: number[] }>(receivers, { cmd: 'raw', count: CLIENTS });
    const rawRun = (seconds: number) => () => ask<Paced>(rawSender, { cmd: 'rawSend', ports, size, hz: HZ, seconds });
    await rawRun(WARMUP_SECONDS)();
    const net: Window[] = [];
    const base: Window[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of rotated(['net', 'raw'] as const, round)) {
        if (side === 'net') net.push(await counted(receivers, netRun(SECONDS)));
        else base.push(await counted(receivers, rawRun(SECONDS)));
      }
    }
    const perDatagram = (r: { cpuMicros: number; ticks: number }) => r.cpuMicros / (r.ticks * CLIENTS);
    const load = (r: Window) => (100 * r.cpuMicros) / 1e6 / r.seconds;
    const delivered = (r: Window) => (100 * r.received) / (r.ticks * CLIENTS);
    const what = `${CLIENTS} clients × ${HZ} Hz, ${size}-byte datagrams`;
    const alternating = (name: string, unit: string, f: (r: Window) => number, higherIsBetter: boolean): BenchResult =>
      roundsRow(name, unit, net.map(f), base.map(f), higherIsBetter);
    return [
      {
        ...alternating(
          `server CPU per snapshot datagram (${what}), ${ROUNDS} rounds of ${SECONDS} s after ${2 * WARMUP_SECONDS + SETTLE_SECONDS} s`,
          'µs',
          perDatagram,
          false,
        ),
        goal: atMost(1.5),
      },
      {
        name: `same, ${WARMUP_SECONDS}-${2 * WARMUP_SECONDS} s after the clients connect (this bench's window before the settle period; not a goal)`,
        value: perDatagram(early),
        unit: 'µs',
      },
      {
        name: `same, first ${WARMUP_SECONDS} s after the clients connect (cold JIT, not a goal)`,
        value: perDatagram(warm),
        unit: 'µs',
      },
      alternating(`server CPU load (${what})`, '% of a core', load, false),
      alternating('snapshots delivered to the clients', '%', delivered, true),
    ];
  } finally {
    await ask(receivers, { cmd: 'close' }).catch(() => undefined);
    await ask(serverSide, { cmd: 'close' }).catch(() => undefined);
    for (const child of [receivers, rawSender, serverSide]) child.send({ cmd: 'exit' });
  }
}
