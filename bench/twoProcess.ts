import type { BenchResult } from './benchResult';
export type { BenchResult } from './benchResult';
import { fork, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { resolve } from 'node:path';
import { Channel, Client } from '../main/net/index';
import { percentile } from './percentile';

const PAYLOAD = { text: 'x'.repeat(64) }; // with the JSON envelope, ~100-byte bodies
const RAW = Buffer.alloc(100, 0x53); // 'S': sink

function ask<T>(child: ChildProcess, message: object): Promise<T> {
  return new Promise((resolveReply) => {
    child.once('message', (reply) => resolveReply(reply as T));
    child.send(message);
  });
}

async function startPeer(): Promise<ChildProcess> {
  const child = fork(resolve(__dirname, 'peer.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  await new Promise((r) => child.once('message', r));
  return child;
}

const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));

async function rawRate(child: ChildProcess, port: number, seconds: number): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  await new Promise<void>((r) => socket.connect(port, '127.0.0.1', r));
  await ask(child, { cmd: 'count' });
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  while (performance.now() < end) {
    for (let i = 0; i < 256; i++) socket.send(RAW);
    await yieldToLoop();
  }
  await new Promise((r) => setTimeout(r, 100));
  const { count } = await ask<{ count: number }>(child, { cmd: 'count' });
  socket.close();
  return count / ((performance.now() - start - 100) / 1000);
}

async function rawEcho(port: number, samples: number): Promise<number[]> {
  const socket = createSocket('udp4');
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  const echo = Buffer.alloc(100, 0x45);
  const rtts: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await new Promise<void>((r) => {
      socket.once('message', () => r());
      socket.send(echo, port, '127.0.0.1');
    });
    rtts.push(performance.now() - t0);
  }
  socket.close();
  return rtts;
}

async function transportRate(child: ChildProcess, port: number, messages: number): Promise<number> {
  const client = new Client();
  await client.connect('127.0.0.1', port);
  await ask(child, { cmd: 'count' });
  const start = performance.now();
  for (let i = 0; i < messages; i++) client.send('sink', PAYLOAD, Channel.RELIABLE_ORDERED);
  let received = 0;
  while (received < messages && performance.now() - start < 30_000) {
    await new Promise((r) => setTimeout(r, 5));
    received += (await ask<{ count: number }>(child, { cmd: 'count' })).count;
  }
  const rate = received / ((performance.now() - start) / 1000);
  await client.close();
  return rate;
}

async function transportEcho(port: number, samples: number): Promise<number[]> {
  const client = new Client();
  await client.connect('127.0.0.1', port);
  const rtts: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await new Promise<void>((r) => {
      const off = client.onMessage('echo', () => {
        off();
        r();
      });
      client.send('echo', PAYLOAD, Channel.RELIABLE_ORDERED);
    });
    rtts.push(performance.now() - t0);
  }
  await client.close();
  return rtts;
}

/** Raw dgram vs RELIABLE_ORDERED through the transport, sender and receiver in two processes. */
export async function benchTwoProcess(): Promise<BenchResult[]> {
  const child = await startPeer();
  try {
    const { port: rawPort } = await ask<{ port: number }>(child, { cmd: 'raw' });
    const { port: netPort } = await ask<{ port: number }>(child, { cmd: 'transport' });
    const rawMsgs = await rawRate(child, rawPort, 2);
    const rawRtt = await rawEcho(rawPort, 2000);
    const netMsgs = await transportRate(child, netPort, 50_000);
    const netRtt = await transportEcho(netPort, 2000);
    return [
      {
        name: 'reliable ordered 100-byte messages/s',
        value: netMsgs,
        unit: 'msg/s',
        baseline: rawMsgs,
        higherIsBetter: true,
      },
      {
        name: 'echo RTT p50',
        value: percentile(netRtt, 50),
        unit: 'ms',
        baseline: percentile(rawRtt, 50),
        higherIsBetter: false,
      },
      {
        name: 'echo RTT p99',
        value: percentile(netRtt, 99),
        unit: 'ms',
        baseline: percentile(rawRtt, 99),
        higherIsBetter: false,
      },
    ];
  } finally {
    child.send({ cmd: 'exit' });
  }
}
