import { createSocket } from 'node:dgram';
import { Channel, Server } from '../main/net/index';
import { benchEndpointOptions, type BenchMode } from './benchModes';

// The far side of the two-process benchmarks: a raw dgram sink/echo and transport servers.
// Talks to bench/run.ts over the fork IPC channel; sends only to 127.0.0.1.

type Command = { cmd: 'raw' } | { cmd: 'transport'; mode: BenchMode } | { cmd: 'count' } | { cmd: 'exit' };

let counted = 0;

async function startRaw(): Promise<number> {
  const socket = createSocket('udp4');
  socket.on('message', (data, from) => {
    counted += 1;
    if (data[0] === 0x45) socket.send(data, from.port, from.address); // 'E': echo request
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

process.on('message', async (message: Command) => {
  switch (message.cmd) {
    case 'raw':
      process.send!({ port: await startRaw() });
      break;
    case 'transport':
      process.send!({ port: await startTransport(message.mode) });
      break;
    case 'count':
      process.send!({ count: counted });
      counted = 0;
      break;
    case 'exit':
      process.exit(0);
  }
});
process.send!({ ready: true });
