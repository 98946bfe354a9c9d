import type { ChildProcess } from 'node:child_process';
import * as enet from 'enet';
import { WebSocket } from 'ws';
import { ask, countedRate, sendFor, settled, timedRoundTrips, type Subject } from './benchSubject';

// What players would use instead, measured by the same bench on the same messages: a WebSocket over TCP (what
// colyseus-style Node game servers speak) and ENet (the C library most UDP games use, compiled to JavaScript).

const SINK = Buffer.alloc(100, 0x53);
const ECHO = Buffer.alloc(100, 0x45);

/** How often both ENet hosts are serviced, ms: ENet sends and reads only when its host is serviced. */
export const ENET_POLL_MS = 1;

/** Bytes a WebSocket may hold unsent before the sender waits (its backpressure). */
const WS_BUFFERED = 1 << 20;

/** A `ws` client (no compression, Nagle off) of the far side's WebSocket server. */
export async function wsSubject(child: ChildProcess): Promise<Subject> {
  const { port } = await ask<{ port: number }>(child, { cmd: 'ws' });
  const socket = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
  socket.on('upgrade', (response) => response.socket.setNoDelay(true));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    name: 'ws',
    async rate(seconds) {
      const start = await sendFor(child, seconds, () => {
        if (socket.bufferedAmount < WS_BUFFERED) for (let i = 0; i < 256; i++) socket.send(SINK);
      });
      const rate = await countedRate(child, start);
      await settled(() => socket.bufferedAmount === 0);
      return { rate };
    },
    echo: (samples) =>
      timedRoundTrips(
        samples,
        () =>
          new Promise<void>((r) => {
            socket.once('message', () => r());
            socket.send(ECHO);
          }),
      ),
    async close() {
      socket.close();
    },
  };
}

/** Batches ENet may have unacknowledged before the sender waits (its backpressure: ENet queues without bound). */
const ENET_BATCHES = 8;
const ENET_BATCH = 256;

/** An ENet client host, serviced every ENET_POLL_MS, connected to a fresh far-side host; closed after each use. */
async function enetSession(child: ChildProcess): Promise<{ peer: enet.Peer; close(): Promise<void> }> {
  const { port } = await ask<{ port: number }>(child, { cmd: 'enet' });
  const options = { peers: 1, channels: 1, down: 0, up: 0 };
  const host = await new Promise<enet.Host>((resolve, reject) =>
    enet.createClient(options, (error, h) => (error ? reject(error) : resolve(h))),
  );
  host.start(ENET_POLL_MS);
  const peer = await new Promise<enet.Peer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('ENet did not connect within 10 s')), 10_000);
    host.connect({ address: '127.0.0.1', port }, 1, 0, (error, p) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(p);
    });
  });
  return {
    peer,
    async close() {
      // Outside ENet's own service call: destroying a host from inside one breaks the library.
      await new Promise<void>((r) => setImmediate(r));
      host.destroy();
      await ask(child, { cmd: 'enetClose' });
    },
  };
}

const reliable = (data: Buffer) => new enet.Packet(data, enet.PACKET_FLAG.RELIABLE);

/**
 * ENet's reliable channel (reliable packets on one channel arrive in order), both hosts polled every ENET_POLL_MS.
 * Each use opens its own pair of hosts, so their polling timers never run while another subject is measured.
 */
export function enetSubject(child: ChildProcess): Subject {
  return {
    name: 'ENet',
    ownHosts: true,
    async rate(seconds) {
      const session = await enetSession(child);
      try {
        let unacked = 0;
        // The last packet of each batch reports its acknowledgement (a callback on every packet costs ENet a scan of
        // all pending callbacks per free): at most ENET_BATCHES batches wait.
        const acked = () => (unacked -= 1);
        const start = await sendFor(child, seconds, () => {
          if (unacked >= ENET_BATCHES) return;
          for (let i = 1; i < ENET_BATCH; i++) session.peer.send(0, reliable(SINK));
          session.peer.send(0, reliable(SINK), acked);
          unacked += 1;
        });
        const rate = await countedRate(child, start);
        await settled(() => unacked === 0);
        return { rate };
      } finally {
        await session.close();
      }
    },
    async echo(samples) {
      const session = await enetSession(child);
      try {
        return await timedRoundTrips(
          samples,
          () =>
            new Promise<void>((r) => {
              const onMessage = () => {
                session.peer.off('message', onMessage);
                r();
              };
              session.peer.on('message', onMessage);
              session.peer.send(0, reliable(ECHO));
            }),
        );
      } finally {
        await session.close();
      }
    },
    close: async () => undefined,
  };
}
