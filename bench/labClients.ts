import { createSocket, type Socket } from 'node:dgram';
import { Client } from '../main/net/index';
import { paced } from './paced';

// The far side of bench/labServerCpu.ts, in its own process so the server's process measures only itself:
// N transport Clients of a Server and N raw dgram sockets, counting what arrives; or (a second instance) the raw
// baseline's sender, measuring its own CPU like the server's process does. Talks over fork IPC. Sends only to 127.0.0.1.

type Command =
  | { cmd: 'clients'; port: number; count: number }
  | { cmd: 'raw'; count: number }
  | { cmd: 'rawSend'; ports: number[]; size: number; hz: number; seconds: number }
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

async function closeAll(): Promise<void> {
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
