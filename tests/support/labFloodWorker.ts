import { Worker } from 'node:worker_threads';
import { unpackHeader } from '../../main/net/v1/header';
import { Wire } from '../../main/net/v1/protocol';
import { jsonSerializer } from '../../main/net/v1/serialization';
import { offerPayload } from './labNativePeer';
import { connectRequest } from './labRawPeer';

/** `count` distinct loopback addresses 127.{second}.x.y (x, y from 0/2 up), never 127.0.0.1. */
export function loopbackHosts(count: number, second: number): string[] {
  return Array.from({ length: count }, (_, i) => `127.${second}.${i >> 6}.${2 + (i & 63)}`);
}

/** One flooding source: a loopback address (127.0.0.0/8) and the datagram it repeats. */
export interface FloodSource {
  host: string;
  request: Uint8Array;
}

/**
 * The hostile-lobby flood: `count` forged sources 127.{second}.x.y (64 to a /24, never 127.0.0.x, the guests'),
 * half sending v1 connect requests, half native offers without a cookie.
 */
export function connectFloodSources(count: number, second: number): FloodSource[] {
  return loopbackHosts(count, second).map((host, i) => ({
    host,
    request: connectRequest(i % 2 ? offerPayload() : {}),
  }));
}

/** A reply one source received: its size and, when it decodes, its v1 message type. */
export interface FloodReply {
  size: number;
  type: string | undefined;
  payload: Record<string, unknown> | undefined;
}

/** What a flood did: rounds sent, and the replies each source got (in `sources` order, at most 64 each). */
export interface FloodResult {
  rounds: number;
  replies: FloodReply[][];
}

/** A running flood; `stop()` ends it and reports, `terminate()` just ends it (cleanup after a failure). */
export interface Flood {
  /** Rounds sent so far (every source once a round), read while the flood runs. */
  rounds(): number;
  stop(): Promise<FloodResult>;
  terminate(): Promise<void>;
}

// Plain CommonJS run in a worker thread: the attacker's sockets must not share the event loop of the server
// under test (they would slow it down as no real attacker could), and must stay bounded (rounds, replies kept).
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const dgram = require('node:dgram');
const { serverPort, sources, gapMs, maxRounds, progress } = workerData;
const sent = new Int32Array(progress);
const replies = sources.map(() => []);
const sockets = [];
let stopped = false;
let rounds = 0;
parentPort.on('message', () => (stopped = true));
(async () => {
  for (let i = 0; i < sources.length; i++) {
    const socket = dgram.createSocket('udp4');
    socket.on('error', () => undefined);
    await new Promise((r) => socket.bind(0, sources[i].host, r));
    await new Promise((r) => socket.connect(serverPort, '127.0.0.1', r));
    socket.on('message', (data) => replies[i].length < 64 && replies[i].push(new Uint8Array(data)));
    sockets.push(socket);
  }
  parentPort.postMessage({ ready: true });
  while (!stopped && rounds < maxRounds) {
    for (let i = 0; i < sockets.length; i++) sockets[i].send(sources[i].request);
    rounds += 1;
    Atomics.store(sent, 0, rounds);
    await new Promise((r) => setTimeout(r, gapMs));
  }
  await new Promise((r) => setTimeout(r, 50)); // the last replies
  await Promise.all(sockets.map((s) => new Promise((r) => s.close(r))));
  parentPort.postMessage({ rounds, replies });
})();
`;

/**
 * Starts `sources` flooding a server on 127.0.0.1:`serverPort` from a worker thread: every `gapMs` each source
 * sends its request once, never answering anything, for at most `maxRounds` rounds. Resolves once all sockets
 * are bound and the first round is going out.
 */
export async function startFlood(
  serverPort: number,
  sources: readonly FloodSource[],
  gapMs: number,
  maxRounds = 200,
): Promise<Flood> {
  // The round count, shared so the test can read it without a message round trip through a busy worker.
  const progress = new SharedArrayBuffer(4);
  const sent = new Int32Array(progress);
  const worker = new Worker(WORKER, { eval: true, workerData: { serverPort, sources, gapMs, maxRounds, progress } });
  const messages: Array<(m: unknown) => void> = [];
  worker.on('message', (m) => messages.shift()?.(m));
  const next = () =>
    new Promise<unknown>((resolve, reject) => {
      messages.push(resolve);
      worker.once('error', reject);
    });
  await next();
  return {
    rounds: () => Atomics.load(sent, 0),
    async stop() {
      const done = next();
      worker.postMessage('stop');
      const { rounds, replies } = (await done) as { rounds: number; replies: Uint8Array[][] };
      await worker.terminate();
      return { rounds, replies: replies.map((list) => list.map(decode)) };
    },
    terminate: async () => void (await worker.terminate()),
  };
}

function decode(data: Uint8Array): FloodReply {
  const header = unpackHeader(data);
  if (!header) return { size: data.byteLength, type: undefined, payload: undefined };
  try {
    const message = jsonSerializer.deserialize(data.subarray(Wire.HEADER_SIZE));
    return { size: data.byteLength, type: message.type, payload: message.payload };
  } catch {
    return { size: data.byteLength, type: undefined, payload: undefined };
  }
}
