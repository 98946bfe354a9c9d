import { createSocket, type Socket } from 'node:dgram';
import { Client, Server } from '../main/net/index';
import { paced } from './paced';

// The processes of bench/labServerCpu.ts, each measuring only itself: N transport Clients of a Server and N raw dgram
// sockets, counting what arrives; or (a second instance) the raw baseline's sender; or (a third) the Server, so
// neither sender's CPU figure carries the bench's own heap and timers. Talks over fork IPC. Sends only to 127.0.0.1.

type Command =
  | { cmd: 'clients'; port: number; count: number }
  | { cmd: 'raw'; count: number }
  | { cmd: 'rawSend'; ports: number[]; size: number; hz: number; seconds: number }
  | { cmd: 'serve' }
  | { cmd: 'snapshotSize'; clients: number }
  | { cmd: 'broadcast'; hz: number; seconds: number }
  | { cmd: 'count' }
  | { cmd: 'close' }
  | { cmd: 'exit' };

let received = 0;
let clients: Client[] = [];
let sockets: Socket[] = [];

async function startClients(port: number, count: number): Promise<void> {
  clients = Array.from({ length: count }, () => new Client());
  for (const c of clients) c.onMessage('snap', () => received++);
  await Promise.all(clients.map((c) => c.connect('127.0.0.1', port, { timeout: 10 })));
}

async function startRaw(count: number): Promise<number[]> {
  sockets = Array.from({ length: count }, () => createSocket('udp4'));
  for (const s of sockets) s.on('message', () => received++);
  await Promise.all(sockets.map((s) => new Promise<void>((r) => s.bind(0, '127.0.0.1', r))));
  return sockets.map((s) => s.address().port);
}

let sender: Socket | undefined;

/** The raw floor's server: one dgram socket sending `size`-byte datagrams to every port at `hz`, paced like the Server. */
async function rawSend(ports: number[], size: number, hz: number, seconds: number) {
  if (!sender) {
    sender = createSocket('udp4');
    await new Promise<void>((r) => sender!.bind(0, '127.0.0.1', r));
  }
  const socket = sender;
  const data = Buffer.alloc(size, 0x52);
  return paced(
    () => {
      for (const port of ports) socket.send(data, port, '127.0.0.1');
    },
    hz,
    seconds,
  );
}

let server: Server | undefined;
/** Snapshots broadcast so far: the tick number of the next. */
let ticks = 0;

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

function listening(): Server {
  if (!server) throw new Error("no server: send 'serve' first");
  return server;
}

/**
 * Bytes of one snapshot datagram as the server sends it (native header, frame, compact JSON, tag), read off its
 * counters around one broadcast that went out alone: the raw side sends datagrams of this size.
 */
async function snapshotDatagramSize(clients: number): Promise<number> {
  const from = listening();
  for (let attempt = 0; attempt < 50; attempt++) {
    const { bytesSent, datagramsSent } = from.counters;
    from.broadcast('snap', snapshot(ticks++));
    await new Promise((r) => setTimeout(r, 20));
    const bytes = from.counters.bytesSent - bytesSent;
    // A heartbeat sent meanwhile would blur the figure: try again.
    if (from.counters.datagramsSent - datagramsSent === clients && bytes % clients === 0) return bytes / clients;
  }
  throw new Error('could not read the size of a snapshot datagram: other datagrams went out with every broadcast');
}

/** The Server's side: a snapshot to every client `hz` times a second for `seconds`, paced like the raw sender. */
function broadcast(hz: number, seconds: number) {
  const from = listening();
  return paced(() => from.broadcast('snap', snapshot(ticks++)), hz, seconds);
}

async function closeAll(): Promise<void> {
  await server?.close();
  server = undefined;
  await Promise.all(clients.map((c) => c.close()));
  for (const s of sockets) s.close();
  clients = [];
  sockets = [];
}

process.on('message', (message: Command) => {
  // A failed command (a client that could not connect) answers with its error, so the bench stops instead of waiting.
  handle(message).catch((error: unknown) => process.send!({ error: String(error) }));
});

async function handle(message: Command): Promise<void> {
  switch (message.cmd) {
    case 'clients':
      await startClients(message.port, message.count);
      process.send!({ ok: true });
      break;
    case 'raw':
      process.send!({ ports: await startRaw(message.count) });
      break;
    case 'rawSend':
      process.send!(await rawSend(message.ports, message.size, message.hz, message.seconds));
      break;
    case 'serve':
      server = await Server.listen({ port: 0, host: '127.0.0.1' });
      process.send!({ port: server.port });
      break;
    case 'snapshotSize':
      process.send!({ size: await snapshotDatagramSize(message.clients) });
      break;
    case 'broadcast':
      process.send!(await broadcast(message.hz, message.seconds));
      break;
    case 'count':
      process.send!({ count: received });
      received = 0;
      break;
    case 'close':
      await closeAll();
      process.send!({ ok: true });
      break;
    case 'exit':
      process.exit(0);
  }
}
process.send!({ ready: true });
