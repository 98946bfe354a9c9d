import { fork, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { Server, jsonSerializer } from '../main/net/index';
import { Wire } from '../main/net/v1/protocol';
import { siblingScript } from './siblingScript';
import type { BenchResult } from './benchResult';

// Server CPU per datagram: one Server broadcasting 60 Hz snapshots (UNRELIABLE) to 64 Clients that live in a
// second process, against the raw floor: one dgram socket sending datagrams of the same size to 64 sockets
// at the same rate. process.cpuUsage() of this (sending) process only; heartbeats, acks and the transport's
// 10 ms service tick are part of the server's cost. Both sides first run WARMUP_SECONDS unmeasured (reported
// apart): the transport's code reaches its optimised tier only after ~2-3 s of this load, which the one-line raw
// loop does at once, so a cold figure measures the JIT as much as the transport.

const CLIENTS = 64;
const HZ = 60;
const SECONDS = 3;
const WARMUP_SECONDS = 3;

/** A plausible snapshot: 8 entities with position, velocity and state. */
function snapshot(tick: number) {
  const entities = Array.from({ length: 8 }, (_, id) => ({ id, x: 100.25 + id, y: 42.5, vx: 1.5, vy: -0.5, hp: 100 }));
  return { tick, entities };
}

function ask<T>(child: ChildProcess, message: object): Promise<T> {
  return new Promise((r) => {
    child.once('message', (reply) => r(reply as T));
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

async function transport(child: ChildProcess) {
  const server = await Server.listen({ port: 0, host: '127.0.0.1' });
  try {
    await ask(child, { cmd: 'clients', port: server.port, count: CLIENTS });
    await new Promise((r) => setTimeout(r, 500));
    const warm = await paced((n) => server.broadcast('snap', snapshot(n)), WARMUP_SECONDS);
    await ask(child, { cmd: 'count' });
    const run = await paced((n) => server.broadcast('snap', snapshot(n)));
    await new Promise((r) => setTimeout(r, 100));
    const { count } = await ask<{ count: number }>(child, { cmd: 'count' });
    return { ...run, received: count, warm };
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
    const warm = await paced(sendAll, WARMUP_SECONDS);
    await ask(child, { cmd: 'count' });
    const run = await paced(sendAll);
    await new Promise((r) => setTimeout(r, 100));
    const { count } = await ask<{ count: number }>(child, { cmd: 'count' });
    return { ...run, received: count, warm };
  } finally {
    socket.close();
    await ask(child, { cmd: 'close' });
  }
}

/** Server CPU per snapshot datagram and CPU load, 64 clients at 60 Hz, against a raw dgram sender. */
export async function benchLabServerCpu(): Promise<BenchResult[]> {
  const child = fork(...siblingScript('labClients'));
  await new Promise((r) => child.once('message', r));
  try {
    const size = Wire.HEADER_SIZE + jsonSerializer.serialize('snap', snapshot(0)).byteLength;
    const net = await transport(child);
    const base = await raw(child, size);
    const perDatagram = (r: Omit<typeof net, 'warm' | 'received'>) => r.cpuMicros / (r.ticks * CLIENTS);
    const load = (r: typeof net) => (100 * r.cpuMicros) / 1e6 / r.seconds;
    const delivered = (r: typeof net) => (100 * r.received) / (r.ticks * CLIENTS);
    const what = `${CLIENTS} clients × ${HZ} Hz, ${size}-byte datagrams`;
    return [
      {
        name: `server CPU per snapshot datagram (${what})`,
        value: perDatagram(net),
        unit: 'µs',
        baseline: perDatagram(base),
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
