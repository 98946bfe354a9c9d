import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BindError,
  Channel,
  Client,
  Server,
  createMemoryNetwork,
  type MemoryNetwork,
} from '../../../../main/net/index';
import type { DatagramHandlers, DatagramSocket } from '../../../../main/net/endpoint/datagramSocket';
import { waitFor } from '../../../support/waitFor';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Heard {
  data: string[];
  from: string[];
  errors: string[];
}

/** A socket on `network` recording what it hears. */
async function open(network: MemoryNetwork, port = 0, host = '0.0.0.0'): Promise<DatagramSocket & Heard> {
  const socket = await network.openSocket({ port, host, recvBufferSize: 1 << 20 });
  cleanups.push(() => socket.close());
  const heard: Heard = { data: [], from: [], errors: [] };
  const handlers: DatagramHandlers = {
    message: (data, from) => {
      heard.data.push(Buffer.from(data).toString());
      heard.from.push(`${from.address}:${from.port}`);
    },
    sendError: (error) => heard.errors.push(`send ${(error as NodeJS.ErrnoException).code}`),
    error: (error) => heard.errors.push(`socket ${error.code}`),
  };
  socket.listen(handlers);
  return Object.assign(socket, heard);
}

describe('createMemoryNetwork', () => {
  it('delivers a copy on a later turn, never from inside send, with the source address', async () => {
    const network = createMemoryNetwork();
    const a = await open(network);
    const b = await open(network, 7000, '10.0.0.2');
    const bytes = Uint8Array.from(Buffer.from('first'));
    expect(a.send(bytes, 7000, '10.0.0.2')).toBe(true);
    bytes.set(Buffer.from('again')); // the caller may reuse its bytes at once
    expect(b.data).toEqual([]); // not delivered synchronously
    await waitFor(() => b.data.length === 1, 1000, 'delivery');
    expect(b.data).toEqual(['first']);
    expect(b.from).toEqual([`127.0.0.1:${a.port}`]);
    expect(a.address).toBe('127.0.0.1');
    expect(network.stats).toEqual({ sent: 1, delivered: 1, dropped: 0 });
  });

  it('drops what the filter says and what nobody is bound to receive', async () => {
    const network = createMemoryNetwork({ drop: (d) => Buffer.from(d).toString() === 'lost' });
    const a = await open(network);
    const b = await open(network);
    a.send(Buffer.from('lost'), b.port, '127.0.0.1');
    a.send(Buffer.from('kept'), b.port, '127.0.0.1');
    a.send(Buffer.from('to nobody'), 9, '127.0.0.1');
    await waitFor(() => network.stats.dropped === 2 && b.data.length === 1, 1000, 'the batch');
    network.drop = undefined;
    a.send(Buffer.from('lost'), b.port, '127.0.0.1');
    await waitFor(() => b.data.length === 2, 1000, 'delivery without a filter');
    expect(b.data).toEqual(['kept', 'lost']);
    expect(a.errors).toEqual([]); // an unconnected socket hears nothing of unbound destinations
  });

  it('binds like UDP: port 0 picks a free port, a busy one is a BindError, close frees it', async () => {
    const network = createMemoryNetwork();
    const a = await open(network, 0);
    const b = await open(network, 0);
    expect(a.port).not.toBe(b.port);
    const taken = network.openSocket({ port: a.port, host: '127.0.0.1', recvBufferSize: 0 });
    await expect(taken).rejects.toBeInstanceOf(BindError);
    await expect(taken).rejects.toThrow(/already in use/);
    await expect(network.openSocket({ port: 70_000, host: '127.0.0.1', recvBufferSize: 0 })).rejects.toThrow(BindError);
    expect(network.boundSockets).toBe(2);
    await a.close();
    expect(network.boundSockets).toBe(1);
    const again = await network.openSocket({ port: a.port, host: '127.0.0.1', recvBufferSize: 0 });
    expect(again.port).toBe(a.port);
    await again.close();
  });

  it('a connected socket sends without an address, hears only its remote, and hears ECONNREFUSED', async () => {
    const network = createMemoryNetwork();
    const server = await open(network, 5000);
    const stranger = await open(network);
    const client = await open(network);
    expect(await client.connect(5000, 'localhost')).toEqual({ address: '127.0.0.1', port: 5000 });
    await expect(client.connect(5000, '127.0.0.1')).rejects.toThrow(/already connected/);
    client.send(Buffer.from('hello'));
    server.send(Buffer.from('reply'), client.port, '127.0.0.1');
    stranger.send(Buffer.from('spam'), client.port, '127.0.0.1');
    await waitFor(() => server.data.length === 1 && client.data.length === 1, 1000, 'both ways');
    await waitFor(() => network.stats.dropped === 1, 1000, 'the stranger dropped');
    expect(client.data).toEqual(['reply']);
    await server.close();
    client.send(Buffer.from('anyone?'));
    await waitFor(() => client.errors.length === 1, 1000, 'the refusal');
    expect(client.errors).toEqual(['socket ECONNREFUSED']);
    await expect(stranger.connect(1, 'game.example')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    stranger.send(Buffer.from('x'), 1, 'game.example');
    await waitFor(() => stranger.errors.length === 1, 1000, 'the lookup failure');
    expect(stranger.errors).toEqual(['send ENOTFOUND']);
    expect(() => stranger.send(Buffer.from('x'))).toThrow(/not connected/);
  });
});

const CHANNELS = [
  Channel.UNRELIABLE,
  Channel.RELIABLE_ORDERED,
  Channel.RELIABLE_UNORDERED,
  Channel.UNRELIABLE_SEQUENCED,
] as const;

describe('createMemoryNetwork: sharing, broadcast and per-send verdicts', () => {
  it('lets sockets that ask for reuseAddr share a port: a broadcast reaches each, a unicast the last bound', async () => {
    const network = createMemoryNetwork();
    const shared = { port: 9998, host: '0.0.0.0', recvBufferSize: 0, reuseAddr: true };
    const first = await network.openSocket(shared);
    const second = await network.openSocket(shared);
    cleanups.push(
      () => first.close(),
      () => second.close(),
    );
    await expect(network.openSocket({ port: 9998, host: '0.0.0.0', recvBufferSize: 0 })).rejects.toThrow(BindError);
    const heard: string[] = [];
    first.listen({ message: (d) => heard.push(`first:${Buffer.from(d).toString()}`), sendError() {}, error() {} });
    second.listen({ message: (d) => heard.push(`second:${Buffer.from(d).toString()}`), sendError() {}, error() {} });
    const sender = await open(network);
    const silent = await network.openSocket({ port: 0, host: '0.0.0.0', recvBufferSize: 0, broadcast: true });
    cleanups.push(() => silent.close());
    silent.send(Buffer.from('all'), 9998, '127.255.255.255');
    sender.send(Buffer.from('one'), 9998, '127.0.0.1');
    await waitFor(() => heard.length === 3);
    expect(heard.sort()).toEqual(['first:all', 'second:all', 'second:one']);
  });

  it('refuses a broadcast from a socket without the broadcast flag, telling the send its EACCES', async () => {
    const network = createMemoryNetwork();
    const sender = await open(network);
    const verdicts: Array<string | null> = [];
    const record = (error: Error | null) => verdicts.push(error && (error as NodeJS.ErrnoException).code!);
    sender.send(Buffer.from('x'), 9998, '127.255.255.255', record);
    sender.send(Buffer.from('y'), 9998, '127.0.0.1', record); // nobody there: it still left
    await waitFor(() => verdicts.length === 2);
    expect(verdicts.sort()).toEqual(['EACCES', null]);
    expect(sender.errors).toEqual(['send EACCES']);
    expect(network.stats.sent).toBe(1);
  });
});

describe('createMemoryNetwork: IPv6', () => {
  it('binds IPv6 sockets when asked (:: as ::1), carries datagrams between them, and refuses the other family', async () => {
    const network = createMemoryNetwork();
    const six = await network.openSocket({
      port: 0,
      host: '::',
      recvBufferSize: 0,
      family: 6,
      sendBufferSize: 1 << 20,
    });
    cleanups.push(() => six.close());
    expect(six.address).toBe('::1');
    const heard: string[] = [];
    six.listen({
      message: (_d, from) => heard.push(`${from.address}:${from.port}`),
      sendError: () => undefined,
      error: () => undefined,
    });
    const other = await open(network, 0, '::1').catch((error: Error) => error);
    expect(other).toBeInstanceOf(BindError); // an IPv4 socket cannot bind ::1
    await expect(network.openSocket({ port: 0, host: '127.0.0.1', recvBufferSize: 0, family: 6 })).rejects.toThrow(
      BindError,
    );
    const sender = await network.openSocket({ port: 0, host: '::1', recvBufferSize: 0, family: 6 });
    cleanups.push(() => sender.close());
    const verdicts: Array<string | null> = [];
    sender.listen({ message: () => undefined, sendError: () => undefined, error: () => undefined });
    sender.send(Buffer.from('x'), six.port, '::1', (error) =>
      verdicts.push(error && (error as NodeJS.ErrnoException).code!),
    );
    sender.send(Buffer.from('y'), six.port, '127.0.0.1', (error) =>
      verdicts.push(error && (error as NodeJS.ErrnoException).code!),
    );
    await waitFor(() => verdicts.length === 2 && heard.length === 1);
    expect(verdicts.sort()).toEqual(['EINVAL', null]);
    expect(heard).toEqual([`::1:${sender.port}`]);
  });
});

describe.each(['v1', 'native'] as const)('Server and Client over a memory network (%s)', (protocol) => {
  const native = protocol === 'v1' ? ({ native: false } as const) : {};

  async function pair(network: MemoryNetwork) {
    const server = await Server.listen({ port: 4000, openSocket: network.openSocket, ...native });
    cleanups.push(() => server.close());
    const client = new Client({ openSocket: network.openSocket, ...native });
    cleanups.push(() => client.close());
    await client.connect('127.0.0.1', 4000);
    return { server, client };
  }

  it('connects and carries messages on every channel both ways, in order where promised', async () => {
    const network = createMemoryNetwork();
    const { server, client } = await pair(network);
    expect(client.protocol).toBe(protocol);
    expect(server.port).toBe(4000);
    const [peer] = server.getPeers();
    expect(peer!.address).toBe('127.0.0.1');
    const atServer = CHANNELS.map(() => [] as number[]);
    const atClient = CHANNELS.map(() => [] as number[]);
    CHANNELS.forEach((channel, c) => {
      server.onMessage(`m${channel}`, (_peer, p) => atServer[c]!.push(p.i as number));
      client.onMessage(`m${channel}`, (p) => atClient[c]!.push(p.i as number));
    });
    for (let i = 0; i < 50; i++) {
      for (const channel of CHANNELS) {
        expect(client.send(`m${channel}`, { i }, channel)).toBe(true);
        expect(server.sendTo(peer!.id, `m${channel}`, { i }, channel)).toBe(true);
      }
    }
    const all = (lists: number[][]) => lists.every((l) => l.length === 50);
    await waitFor(() => all(atServer) && all(atClient), 3000, 'every message on every channel');
    const sequence = [...Array(50).keys()];
    for (const got of [atServer, atClient]) {
      expect(got[1]).toEqual(sequence); // reliable ordered
      expect([...got[2]!].sort((x, y) => x - y)).toEqual(sequence);
      expect(got[0]).toEqual(sequence); // nothing lost or reordered in memory
      expect(got[3]).toEqual(sequence);
    }
    await waitFor(() => client.getRtt() !== undefined, 3000, 'an RTT sample');
    expect(client.getRtt()).toBeLessThan(0.5);
  });

  it('recovers a dropped reliable datagram by retransmission', async () => {
    const network = createMemoryNetwork();
    const { server, client } = await pair(network);
    const got: string[] = [];
    server.onMessage('precious', (_peer, p) => got.push(p.tag as string));
    let dropped = 0;
    network.drop = (datagram, _from, to) => {
      if (to.port !== 4000 || dropped > 0 || !Buffer.from(datagram).includes('precious')) return false;
      dropped += 1;
      return true;
    };
    client.send('precious', { tag: 'once' }, Channel.RELIABLE_ORDERED);
    await waitFor(() => got.length === 1, 3000, 'the retransmitted message');
    expect(dropped).toBe(1);
    expect(got).toEqual(['once']);
    expect(client.connectionCounters!.retransmits).toBeGreaterThan(0);
  });

  it('disconnects either way with a reason', async () => {
    const network = createMemoryNetwork();
    const { server, client } = await pair(network);
    const serverSide: string[] = [];
    server.onDisconnect((_peer, reason) => serverSide.push(reason));
    client.disconnect();
    await waitFor(() => serverSide.length === 1, 2000, 'the server to hear the goodbye');
    expect(serverSide[0]).toMatch(/disconnected by the other side/);
    const clientSide: string[] = [];
    client.onDisconnect((reason) => clientSide.push(reason));
    await client.connect('127.0.0.1', 4000);
    expect(server.disconnect(client.peerId!, 'kicked')).toBe(true);
    await waitFor(() => clientSide.length === 1, 2000, 'the client to hear the kick');
    expect(clientSide[0]).toMatch(/disconnected by the other side/);
    expect(client.state).toBe('idle');
  });

  it('closes: peers hear the server go, and every socket leaves the network', async () => {
    const network = createMemoryNetwork();
    const { server, client } = await pair(network);
    expect(network.boundSockets).toBe(2);
    const reasons: string[] = [];
    client.onDisconnect((reason) => reasons.push(reason));
    await server.close();
    await waitFor(() => reasons.length === 1, 2000, 'the client to hear the close');
    await client.close();
    await waitFor(() => network.boundSockets === 0, 2000, 'sockets unbound');
    expect(client.state).toBe('closed');
  });

  it('fails a connect to an address nobody listens on, naming the refusal', async () => {
    const network = createMemoryNetwork();
    const client = new Client({ openSocket: network.openSocket, ...native });
    cleanups.push(() => client.close());
    await expect(client.connect('127.0.0.1', 4001, { timeout: 0.3 })).rejects.toThrow(/port unreachable/);
    expect(network.boundSockets).toBe(0);
  });
});

describe('without openSocket', () => {
  it('Server.listen binds a real UDP socket, which a real Client reaches', async () => {
    const server = await Server.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => server.close());
    // The port is taken on the machine, not on some memory network.
    const probe = createSocket('udp4');
    const bindError = await new Promise<NodeJS.ErrnoException>((resolve) => {
      probe.once('error', resolve);
      probe.bind(server.port, '127.0.0.1');
    });
    probe.close();
    expect(bindError.code).toBe('EADDRINUSE');
    expect(server.recvBufferSize).toBeGreaterThan(0);
    const client = new Client();
    cleanups.push(() => client.close());
    await client.connect('127.0.0.1', server.port);
    expect(server.getPeers()).toHaveLength(1);
  });
});
