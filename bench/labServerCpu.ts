import { fork, type ChildProcess } from 'node:child_process';
import { Server } from '../main/net/index';
import { siblingScript } from './siblingScript';
import type { BenchResult } from './benchResult';
import { paced } from './paced';
import { rotated, roundsRow } from './rounds';
import { atMost } from './goal';

// Server CPU per datagram: one Server broadcasting 60 Hz snapshots (UNRELIABLE) to 64 Clients that live in a
// second process, against the raw floor: one dgram socket sending datagrams of the same size to 64 sockets at the
// same rate, from a third process (this one holds the Server, whose idle timers would be charged to a raw sender
// here). The size is what the server actually sent (native header, frame, compact JSON, tag). process.cpuUsage() of
// each sending process only; heartbeats, acks and the transport's service tick are part of the server's cost.
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

/**
 * A plausible snapshot: 8 entities with position, velocity and state. Built with a plain loop: `Array.from` with a
 * length object takes V8's slow generic path, which the profile charged to the transport's side (~4% of it) though it
 * is the game's work, and the raw side builds nothing.
 */
function snapshot(tick: number) {
  const entities = [];
  for (let id = 0; id < 8; id++) entities.push({ id, x: 100.25 + id, y: 42.5, vx: 1.5, vy: -0.5, hp: 100 });
  return { tick, entities };
}

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

/**
 * Bytes of one snapshot datagram as the server sends it (native header, frame, compact JSON, tag), read off its
 * counters around one broadcast that went out alone: the raw side sends datagrams of this size.
 */
async function snapshotDatagramSize(server: Server): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const { bytesSent, datagramsSent } = server.counters;
    server.broadcast('snap', snapshot(0));
    await new Promise((r) => setTimeout(r, 20));
    const bytes = server.counters.bytesSent - bytesSent;
    // A heartbeat sent meanwhile would blur the figure: try again.
    if (server.counters.datagramsSent - datagramsSent === CLIENTS && bytes % CLIENTS === 0) return bytes / CLIENTS;
  }
  throw new Error('could not read the size of a snapshot datagram: other datagrams went out with every broadcast');
}

/** Forks a clients' process (receivers, or the raw baseline's sender) and waits until it is ready. */
async function forkClients(): Promise<ChildProcess> {
  const child = fork(...siblingScript('labClients'));
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the clients' process exited (${code}) before it was ready`)));
  });
  return child;
}

type Window = Awaited<ReturnType<typeof paced>> & { received: number };

/** One measured window of `run`, with what the clients received during it. */
async function counted(child: ChildProcess, run: () => Promise<Awaited<ReturnType<typeof paced>>>): Promise<Window> {
  await ask(child, { cmd: 'count' });
  const window = await run();
  await new Promise((r) => setTimeout(r, 100));
  const { count } = await ask<{ count: number }>(child, { cmd: 'count' });
  return { ...window, received: count };
}

/**
 * Server CPU per snapshot datagram and CPU load, 64 clients at 60 Hz, against a raw dgram sender: the Server in this
 * process, the raw sender in a process of its own (so neither's idle timers are charged to the other), the receivers
 * in a third. After the Server's warm-up and settle period (reported, not goals), ROUNDS rounds of one SECONDS window
 * each, in rotated order; the ratio is the median of the per-round ratios.
 */
export async function benchLabServerCpu(): Promise<BenchResult[]> {
  const receivers = await forkClients();
  const rawSender = await forkClients();
  const server = await Server.listen({ port: 0, host: '127.0.0.1' });
  try {
    await ask(receivers, { cmd: 'clients', port: server.port, count: CLIENTS });
    await new Promise((r) => setTimeout(r, 500));
    const size = await snapshotDatagramSize(server);
    const tick = (n: number) => server.broadcast('snap', snapshot(n));
    const warm = await paced(tick, HZ, WARMUP_SECONDS);
    const early = await paced(tick, HZ, WARMUP_SECONDS);
    await paced(tick, HZ, SETTLE_SECONDS);
    const { ports } = await ask<{ ports: number[] }>(receivers, { cmd: 'raw', count: CLIENTS });
    const rawRun = (seconds: number) => () =>
      ask<Awaited<ReturnType<typeof paced>>>(rawSender, { cmd: 'rawSend', ports, size, hz: HZ, seconds });
    await rawRun(WARMUP_SECONDS)();
    const net: Window[] = [];
    const base: Window[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of rotated(['net', 'raw'] as const, round)) {
        if (side === 'net') net.push(await counted(receivers, () => paced(tick, HZ, SECONDS)));
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
    await server.close();
    receivers.send({ cmd: 'exit' });
    rawSender.send({ cmd: 'exit' });
  }
}
