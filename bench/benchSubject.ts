import type { ChildProcess } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { Channel, Client } from '../main/net/index';
import { benchEndpointOptions, payloadOfSize, type BenchMode } from './benchModes';

/** One thing the two-process bench measures (raw dgram, a transport mode, a peer library), its far side in `peer.ts`. */
export interface Subject {
  readonly name: string;
  /** Opens its own hosts for each use (ENet): its echo runs in one stretch per round, not in turns with the others. */
  readonly ownHosts?: boolean;
  /** Measured for its rate only (the bare-socket ceiling): no echo rows. */
  readonly rateOnly?: boolean;
  /** Sends 100-byte reliable ordered messages for `seconds`, held back by its own backpressure; the far side counts. */
  rate(seconds: number): Promise<RateSample>;
  /** `samples` echo round trips of a 100-byte message, one at a time, ms each. */
  echo(samples: number): Promise<number[]>;
  close(): Promise<void>;
}

/** Messages/s the far side counted, and what each cost on the wire where the subject counts it. */
export interface RateSample {
  rate: number;
  bytesPerMessage?: number;
  datagramsPerMessage?: number;
}

/** Seconds the far side may take to answer a command before the bench gives up. */
const ASK_TIMEOUT_S = 30;

/** Sends a command to the far side and waits (bounded) for its answer; an answer with `error` rejects. */
export function ask<T>(child: ChildProcess, message: { cmd: string; [key: string]: unknown }): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onReply);
      reject(new Error(`the bench peer did not answer '${message.cmd}' within ${ASK_TIMEOUT_S} s`));
    }, ASK_TIMEOUT_S * 1000);
    const onReply = (reply: unknown) => {
      clearTimeout(timer);
      const error = (reply as { error?: string }).error;
      if (error !== undefined) reject(new Error(`the bench peer failed '${message.cmd}': ${error}`));
      else resolve(reply as T);
    };
    child.once('message', onReply);
    child.send(message);
  });
}

/** Lets the event loop run (receive, flush) between batches of sends. */
export const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

/** Calls `batch` once per event-loop turn for `seconds` (the far side's count reset first); returns when it started. */
export async function sendFor(child: ChildProcess, seconds: number, batch: () => void): Promise<number> {
  await ask(child, { cmd: 'count' });
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    batch();
    await yieldToLoop();
  }
  return start;
}

/** Messages/s the far side counted since its last count, over the time since `start`. */
export async function countedRate(child: ChildProcess, start: number): Promise<number> {
  const { count } = await ask<{ count: number }>(child, { cmd: 'count' });
  return count / ((performance.now() - start) / 1000);
}

/** Waits (bounded: 3 s) until `done`, then a moment for the last datagrams to land. */
export async function settled(done: () => boolean): Promise<void> {
  const deadline = performance.now() + 3000;
  while (!done() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, 20));
}

/** Round trips of `once` (a send and its echo), timed one at a time. */
export async function timedRoundTrips(samples: number, once: () => Promise<void>): Promise<number[]> {
  const rtts: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await once();
    rtts.push(performance.now() - t0);
  }
  return rtts;
}

const RAW_SINK = Buffer.alloc(100, 0x53);

/** A udp4 socket on 127.0.0.1 connected to the far side's `port`. */
async function connectedSocket(port: number): Promise<Socket> {
  const socket = createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  await new Promise<void>((r) => socket.connect(port, '127.0.0.1', r));
  return socket;
}

/** Datagrams/s the far side counted of `send`, called `perTurn` times each event-loop turn (no backpressure). */
async function floodRate(child: ChildProcess, seconds: number, send: () => void, perTurn: number) {
  const start = await sendFor(child, seconds, () => {
    for (let i = 0; i < perTurn; i++) send();
  });
  // What is still in the socket buffers arrives: counted over the time it took.
  await new Promise((r) => setTimeout(r, 100));
  return { rate: await countedRate(child, start) };
}
const RAW_ECHO = Buffer.alloc(100, 0x45);

/** Raw dgram, no header and no reliability: the floor every row is set against. Its rate has no backpressure. */
export async function rawSubject(child: ChildProcess): Promise<Subject> {
  const { port } = await ask<{ port: number }>(child, { cmd: 'raw' });
  const sink = await connectedSocket(port);
  const echoer = createSocket('udp4');
  await new Promise<void>((r) => echoer.bind(0, '127.0.0.1', r));
  return {
    name: 'raw dgram',
    rate: (seconds) => floodRate(child, seconds, () => sink.send(RAW_SINK), 256),
    echo: (samples) =>
      timedRoundTrips(
        samples,
        () =>
          new Promise<void>((r) => {
            echoer.once('message', () => r());
            echoer.send(RAW_ECHO, port, '127.0.0.1');
          }),
      ),
    async close() {
      sink.close();
      echoer.close();
    },
  };
}

/**
 * A bare connected socket sending `size`-byte datagrams as fast as its sender can, no backpressure, no header and no
 * work per message: its rate is datagrams/s that arrived. Times the messages a transport datagram of that size
 * carries, it is the most any sender of such datagrams could deliver from this process: a send costs ~3.6 µs of CPU
 * here whatever the size, most of it in the kernel, and that is most of the sender's CPU.
 */
export async function rawFullSubject(child: ChildProcess, size: number): Promise<Subject> {
  const { port } = await ask<{ port: number }>(child, { cmd: 'raw' });
  const socket = await connectedSocket(port);
  const datagram = Buffer.alloc(size, 0x53);
  return {
    name: `raw dgram, ${size}-byte datagrams`,
    rateOnly: true,
    rate: (seconds) => floodRate(child, seconds, () => socket.send(datagram), 64),
    echo: () => Promise.reject(new Error('the bare-socket ceiling measures no round trips')),
    async close() {
      socket.close();
    },
  };
}

/** Keeps the sender's queue short (as a game would), so the rate is what the link sustains, not a backlog. */
const MAX_PENDING = 8192;

/** A transport Client of a Server in `mode`, RELIABLE_ORDERED. */
export async function transportSubject(child: ChildProcess, mode: BenchMode): Promise<Subject> {
  const { port } = await ask<{ port: number }>(child, { cmd: 'transport', mode });
  const client = new Client(benchEndpointOptions(mode));
  await client.connect('127.0.0.1', port);
  const payload = payloadOfSize(mode, 100);
  return {
    name: mode,
    async rate(seconds) {
      const before = { bytes: client.counters.bytesSent, datagrams: client.counters.datagramsSent };
      const pendingBefore = client.stats()?.pendingReliable ?? 0;
      let sent = 0;
      const start = await sendFor(child, seconds, () => {
        if ((client.stats()?.pendingReliable ?? 0) >= MAX_PENDING) return;
        for (let i = 0; i < 256; i++) client.send('sink', payload, Channel.RELIABLE_ORDERED);
        sent += 256;
      });
      const rate = await countedRate(child, start);
      // Per message that left: some may still wait in the send queue when the clock stops.
      const left = sent + pendingBefore - (client.stats()?.pendingReliable ?? 0);
      const counters = client.counters;
      // Drained before the next subject's slice, so none of these messages is counted as its.
      await settled(() => (client.stats()?.pendingReliable ?? 0) === 0);
      return {
        rate,
        bytesPerMessage: (counters.bytesSent - before.bytes) / left,
        datagramsPerMessage: (counters.datagramsSent - before.datagrams) / left,
      };
    },
    echo: (samples) =>
      timedRoundTrips(
        samples,
        () =>
          new Promise<void>((r) => {
            const off = client.onMessage('echo', () => {
              off();
              r();
            });
            client.send('echo', payload, Channel.RELIABLE_ORDERED);
          }),
      ),
    close: () => client.close(),
  };
}
