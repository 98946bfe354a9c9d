import { fork, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { Server } from '../main/net/index';
import { siblingScript } from './siblingScript';
import type { BenchResult } from './benchResult';

// Server CPU per datagram: one Server broadcasting 60 Hz snapshots (UNRELIABLE) to 64 Clients that live in a
// second process, against the raw floor: one dgram socket sending datagrams of the same size to 64 sockets
// at the same rate. The size is what the server actually sent (its native datagrams carry compact JSON: 530
// bytes here); this bench used to size the raw datagrams as a v1 header and reference JSON (627 bytes). process.cpuUsage() of this (sending) process only; heartbeats, acks and the transport's
// service tick are part of the server's cost. Both sides run the same schedule: WARMUP_SECONDS (reported as the
// cold figure), WARMUP_SECONDS more (reported: the window this bench measured until the settle period came in),
// SETTLE_SECONDS unmeasured, then SECONDS measured (the goal's figure). The transport's hot path is optimised
// within ~2-3 s, but code that runs only with heartbeats (~2 datagrams per peer per second) reaches TurboFan
// much later: `--trace-opt` still showed ~15 optimising compiles (health, loss window, hash wrappers) in the
// 3-6 s window, each one run on V8's compiler thread and charged to this process, worth ~2-3 µs per snapshot
// datagram there; a server runs for hours, so the steady state is what the goal is about. The one-line raw loop
// is optimised at once and gets the same schedule.

const CLIENTS = 64;
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

/** Calls `tick` HZ times a second for SECONDS, on an absolute schedule; returns CPU µs used and ticks run. */
async function paced(
  tick: (n: number) => void,
  seconds = SECONDS,
): Promise<{ cpuMicros: number; ticks: number; seconds: number }> {
  const ticks = HZ * seconds;
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (let n = 0; n < ticks; n++) {
    tick(n);
    const next = start + ((n + 1) * 1000) / HZ;
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  const used = process.cpuUsage(cpu);
  return { cpuMicros: used.user + used.system, ticks, seconds: (performance.now() - start) / 1000 };
}

/** The schedule both sides run (see above); `received`: what the clients got during the measured window. */
async function schedule(child: ChildProcess, tick: (n: number) => void) {
  const warm = await paced(tick, WARMUP_SECONDS);
  const early = await paced(tick, WARMUP_SECONDS);
  await paced(tick, SETTLE_SECONDS);
  await ask(child, { cmd: 'count' });
  const run = await paced(tick);
  await new Promise((r) => setTimeout(r, 100));
  const { count } = await ask<{ count: number }>(child, { cmd: 'count' });
  return { warm, early, run, received: count };
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

async function transport(child: ChildProcess) {
  const server = await Server.listen({ port: 0, host: '127.0.0.1' });
  try {
    await ask(child, { cmd: 'clients', port: server.port, count: CLIENTS });
    await new Promise((r) => setTimeout(r, 500));
    const size = await snapshotDatagramSize(server);
    const { warm, early, run, received } = await schedule(child, (n) => server.broadcast('snap', snapshot(n)));
    return { ...run, received, warm, early, size };
  } finally {
    await ask(child, { cmd: 'close' });
    await server.close();
  }
}

async function raw(child: ChildProcess, size: number) {
  const { ports } = await ask<{ ports: number[] }>(child, { cmd: 'raw', count: CLIENTS });
  const socket = createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  const data = Buffer.alloc(size, 0x52);
  try {
    const sendAll = () => {
      for (const port of ports) socket.send(data, port, '127.0.0.1');
    };
    const { warm, early, run, received } = await schedule(child, sendAll);
    return { ...run, received, warm, early };
  } finally {
    socket.close();
    await ask(child, { cmd: 'close' });
  }
}

/** Server CPU per snapshot datagram and CPU load, 64 clients at 60 Hz, against a raw dgram sender. */
export async function benchLabServerCpu(): Promise<BenchResult[]> {
  const child = fork(...siblingScript('labClients'));
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the clients' process exited (${code}) before it was ready`)));
  });
  try {
    const net = await transport(child);
    const size = net.size;
    const base = await raw(child, size);
    const perDatagram = (r: { cpuMicros: number; ticks: number }) => r.cpuMicros / (r.ticks * CLIENTS);
    const load = (r: typeof base) => (100 * r.cpuMicros) / 1e6 / r.seconds;
    const delivered = (r: typeof base) => (100 * r.received) / (r.ticks * CLIENTS);
    const what = `${CLIENTS} clients × ${HZ} Hz, ${size}-byte datagrams`;
    return [
      {
        name: `server CPU per snapshot datagram (${what}), after ${2 * WARMUP_SECONDS + SETTLE_SECONDS} s`,
        value: perDatagram(net),
        unit: 'µs',
        baseline: perDatagram(base),
        higherIsBetter: false,
      },
      {
        name: `same, ${WARMUP_SECONDS}-${2 * WARMUP_SECONDS} s after the clients connect (this bench's window before the settle period; not a goal)`,
        value: perDatagram(net.early),
        unit: 'µs',
        baseline: perDatagram(base.early),
        higherIsBetter: false,
      },
      {
        name: `same, first ${WARMUP_SECONDS} s after the clients connect (cold JIT, not a goal)`,
        value: perDatagram(net.warm),
        unit: 'µs',
        baseline: perDatagram(base.warm),
        higherIsBetter: false,
      },
      { name: `server CPU load (${what})`, value: load(net), unit: '% of a core', baseline: load(base) },
      { name: 'snapshots delivered to the clients', value: delivered(net), unit: '%', baseline: delivered(base) },
    ];
  } finally {
    child.send({ cmd: 'exit' });
  }
}
