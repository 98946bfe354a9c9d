import { createSocket } from 'node:dgram';
import * as enet from 'enet';
import { WebSocketServer } from 'ws';
import { Channel, Server } from '../main/net/index';
import { benchEndpointOptions, type BenchMode } from './benchModes';
import { ENET_POLL_MS } from './peerSubjects';

// The far side of the two-process benchmarks: a raw dgram sink/echo, transport servers, and the peers players would
// use instead (a WebSocket server, an ENet host). Each counts 'S' (sink) messages and echoes 'E' ones.
// Talks to bench/run.ts over the fork IPC channel; listens and sends only on 127.0.0.1.

type Command =
  | { cmd: 'raw' }
  | { cmd: 'transport'; mode: BenchMode }
  | { cmd: 'ws' }
  | { cmd: 'enet' }
  | { cmd: 'enetClose' }
  | { cmd: 'count' }
  | { cmd: 'exit' };

const ECHO = 0x45;
let counted = 0;

async function startRaw(): Promise<number> {
  const socket = createSocket('udp4');
  socket.on('message', (data, from) => {
    counted += 1;
    if (data[0] === ECHO) socket.send(data, from.port, from.address);
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  return socket.address().port;
}

async function startTransport(mode: BenchMode): Promise<number> {
  const server = await Server.listen({ port: 0, host: '127.0.0.1', ...benchEndpointOptions(mode) });
  server.onMessage('sink', () => (counted += 1));
  server.onMessage('echo', (peer, payload) => server.sendTo(peer.id, 'echo', payload, Channel.RELIABLE_ORDERED));
  return server.port;
}

/** WebSocket over TCP as a colyseus-style Node game server runs it: no compression, Nagle off. */
async function startWs(): Promise<number> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  server.on('connection', (socket, request) => {
    request.socket.setNoDelay(true);
    socket.on('message', (data: Buffer) => {
      counted += 1;
      if (data[0] === ECHO) socket.send(data);
    });
  });
  await new Promise<void>((r) => server.once('listening', r));
  return (server.address() as { port: number }).port;
}

let enetHost: enet.Host | undefined;

/** An ENet host serviced every ENET_POLL_MS; every message on its one channel is reliable (and so ordered). */
function startEnet(): Promise<number> {
  return new Promise((resolve, reject) => {
    const options = { address: { address: '127.0.0.1', port: 0 }, peers: 4, channels: 1, down: 0, up: 0 };
    enet.createServer(options, (error, host) => {
      if (error) return reject(error);
      enetHost = host;
      host.on('connect', (peer) => {
        peer.on('message', (packet) => {
          const data = packet.data();
          counted += 1;
          if (data[0] === ECHO) peer.send(0, new enet.Packet(Buffer.from(data), enet.PACKET_FLAG.RELIABLE));
        });
      });
      host.start(ENET_POLL_MS);
      resolve(host.address().port);
    });
  });
}

/** Destroyed outside ENet's own service call (destroying it from a callback inside one breaks the library). */
function closeEnet(): Promise<void> {
  return new Promise((resolve) =>
    setImmediate(() => {
      enetHost?.destroy();
      enetHost = undefined;
      resolve();
    }),
  );
}

async function handle(message: Command): Promise<unknown> {
  switch (message.cmd) {
    case 'raw':
      return { port: await startRaw() };
    case 'transport':
      return { port: await startTransport(message.mode) };
    case 'ws':
      return { port: await startWs() };
    case 'enet':
      return { port: await startEnet() };
    case 'enetClose':
      await closeEnet();
      return { ok: true };
    case 'count': {
      const count = counted;
      counted = 0;
      return { count };
    }
    case 'exit':
      process.exit(0);
  }
}

process.on('message', (message: Command) => {
  handle(message).then(
    (reply) => process.send!(reply),
    (error: unknown) => process.send!({ error: String(error) }),
  );
});
process.send!({ ready: true });
