import { createSocket, type Socket } from 'node:dgram';
import { Channel, type Client, type Server } from '../../main/net/index';

/** Reliable traffic both ways on both channels of one session, recorded per side, plus unreliable chatter. */
export function fuzzStreams(server: Server, client: Client, peerId: () => number) {
  const got = {
    serverO: [] as unknown[],
    serverU: [] as unknown[],
    clientO: [] as unknown[],
    clientU: [] as unknown[],
  };
  server.onMessage('o', (p, m) => p.id === peerId() && got.serverO.push(m.i));
  server.onMessage('u', (p, m) => p.id === peerId() && got.serverU.push(m.i));
  client.onMessage('o', (m) => got.clientO.push(m.i));
  client.onMessage('u', (m) => got.clientU.push(m.i));
  /** Messages `from..to-1` on every channel, both ways (reliable ones recorded). */
  const send = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      client.send('o', { i }, Channel.RELIABLE_ORDERED);
      client.send('u', { i }, Channel.RELIABLE_UNORDERED);
      client.send('n', { i });
      client.send('s', { i }, Channel.UNRELIABLE_SEQUENCED);
      server.sendTo(peerId(), 'o', { i }, Channel.RELIABLE_ORDERED);
      server.sendTo(peerId(), 'u', { i }, Channel.RELIABLE_UNORDERED);
      server.sendTo(peerId(), 'n', { i });
      server.sendTo(peerId(), 's', { i }, Channel.UNRELIABLE_SEQUENCED);
    }
  };
  /** A few messages of `bytes` on every channel, both ways, unrecorded: fragments for the corpus (native). */
  const sendLarge = (count: number, bytes: number) => {
    const pad = 'x'.repeat(bytes);
    const channels = [Channel.RELIABLE_ORDERED, Channel.RELIABLE_UNORDERED, Channel.UNRELIABLE];
    for (let i = 0; i < count; i++) {
      for (const channel of [...channels, Channel.UNRELIABLE_SEQUENCED]) {
        client.send('large', { i, pad }, channel);
        server.sendTo(peerId(), 'large', { i, pad }, channel);
      }
    }
  };
  const complete = (n: number) => Object.values(got).every((list) => list.length >= n);
  return { got, send, sendLarge, complete };
}

/** `count` sockets bound to 127.0.{0-3}.{2-8}, aimed at `serverPort` on 127.0.0.1; registers their closing. */
export async function strangerSockets(
  count: number,
  serverPort: number,
  cleanups: Array<() => unknown>,
): Promise<Socket[]> {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    const s = createSocket('udp4');
    s.on('error', () => undefined);
    await new Promise<void>((r) => s.bind(0, `127.0.${i % 4}.${2 + (i % 7)}`, r));
    await new Promise<void>((r) => s.connect(serverPort, '127.0.0.1', r));
    sockets.push(s);
    cleanups.push(() => s.close());
  }
  return sockets;
}
