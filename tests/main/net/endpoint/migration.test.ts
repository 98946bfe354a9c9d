import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Client, Server, createMemoryNetwork, type Peer } from '../../../../main/net/index';
import type { NativeConnection } from '../../../../main/net/native/nativeConnection';
import { parseNativePacket } from '../../../../main/net/native/wire/nativePacket';
import { Frame, Native } from '../../../../main/net/native/wire/nativeWire';
import { startMemoryNat } from '../../../support/memoryNat';
import { waitFor } from '../../../support/waitFor';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const SERVER = '10.9.0.1';
const MESSAGES = 600;

/** A server, a NAT in front of one client, and reliable ordered streams both ways driven by a timer. */
async function setup() {
  const network = createMemoryNetwork();
  const server = await Server.listen({ port: 0, host: SERVER, openSocket: network.openSocket, connectLimits: false });
  cleanups.push(() => server.close());
  const nat = await startMemoryNat(
    network.openSocket,
    { address: SERVER, port: server.port },
    '10.0.0.1',
    '198.51.100.7',
  );
  cleanups.push(() => nat.close());
  const up: number[] = [];
  const down: number[] = [];
  const moves: string[] = [];
  server.onMessage('up', (_peer, m) => up.push(m.i as number));
  server.onMigrate((peer, from) => moves.push(`peer ${peer.id} moved ${from} → ${peer.endpoint}`));
  const client = new Client({ openSocket: network.openSocket });
  cleanups.push(() => client.close());
  client.onMessage('down', (m) => down.push(m.i as number));
  await client.connect(nat.inside.address, nat.inside.port, { timeout: 5 });
  expect(client.protocol).toBe('native');
  const peer = server.getPeers()[0]!;
  let sent = 0;
  const pump = setInterval(() => {
    for (let k = 0; k < 3 && sent < MESSAGES; k++, sent++) {
      client.send('up', { i: sent }, Channel.RELIABLE_ORDERED);
      server.sendTo(peer.id, 'down', { i: sent }, Channel.RELIABLE_ORDERED);
    }
  }, 2);
  cleanups.push(() => clearInterval(pump));
  return { network, server, nat, client, peer, up, down, moves, sent: () => sent };
}

const link = (peer: Peer) => peer.connection as NativeConnection;
const inOrder = (n: number) => [...Array(n).keys()];

/** A socket at `address` recording native datagrams it hears: a third party on the path to the server. */
async function stranger(network: ReturnType<typeof createMemoryNetwork>, address: string) {
  const socket = await network.openSocket({ port: 0, host: address, recvBufferSize: 0 });
  cleanups.push(() => socket.close());
  const heard: Uint8Array[] = [];
  socket.listen({
    message: (d) => heard.push(Uint8Array.from(d)),
    sendError: () => undefined,
    error: () => undefined,
  });
  return { socket, heard, sentBytes: 0 };
}

describe('native connection migration (memory network, NAT rebinding)', () => {
  it('a client whose NAT mapping moves mid-stream keeps both streams whole and in order', async () => {
    const { server, nat, peer, up, down, moves, sent } = await setup();
    const before = peer.endpoint;
    await waitFor(() => up.length >= 100 && down.length >= 100, 10_000, 'the streams to start');
    await nat.rebind('203.0.113.50');
    await waitFor(() => moves.length === 1, 10_000, 'the move');
    expect(peer.endpoint).toBe(`${nat.outside.address}:${nat.outside.port}`);
    expect(peer.endpoint).not.toBe(before);
    expect(moves).toEqual([`peer ${peer.id} moved ${before} → ${peer.endpoint}`]);
    await waitFor(() => up.length === MESSAGES && down.length === MESSAGES, 20_000, 'every message both ways');
    expect(sent()).toBe(MESSAGES);
    expect(up).toEqual(inOrder(MESSAGES));
    expect(down).toEqual(inOrder(MESSAGES));
    expect(server.getPeers()).toEqual([peer]); // the same peer, not a new one
    expect(link(peer).pendingPaths).toBe(0);
  }, 40_000);

  it('a replayed old datagram from a third address is dropped as a replay and challenges no one', async () => {
    const { network, server, nat, peer, up, moves } = await setup();
    const spy = await stranger(network, '192.0.2.66');
    await waitFor(() => up.length >= 50, 10_000, 'traffic');
    const captured = nat.upstream.filter((d) => d[0] === Native.MAGIC).slice(-5);
    for (const d of captured) spy.socket.send(d, server.port, SERVER);
    await waitFor(() => link(peer).counters.dropped.replayed === captured.length, 5000, 'the replays dropped');
    expect(link(peer).pendingPaths).toBe(0);
    expect(spy.heard).toEqual([]);
    await waitFor(() => up.length === MESSAGES, 20_000, 'the stream');
    expect(up).toEqual(inOrder(MESSAGES));
    expect(moves).toEqual([]);
    expect(peer.endpoint).toBe(`${nat.outside.address}:${nat.outside.port}`);
  }, 40_000);

  it('the newest datagram raced from a third address gets one small challenge there, and the peer stays', async () => {
    const { network, server, nat, peer, up, moves } = await setup();
    const spy = await stranger(network, '192.0.2.66');
    await waitFor(() => up.length >= 50, 10_000, 'traffic');
    // The spoofer is on the path: it takes the client's next datagram and sends it first, from its own address
    // (the NAT holds the client's datagrams meanwhile: they are lost, and retransmitted later).
    nat.hold = (d) => d[0] === Native.MAGIC;
    await waitFor(() => nat.held.length > 0, 5000, 'a datagram to steal');
    const stolen = nat.held[0]!;
    spy.socket.send(stolen, server.port, SERVER);
    await waitFor(() => spy.heard.length === 1, 5000, 'the challenge to the spoofer');
    nat.hold = undefined;
    const challenge = parseNativePacket(spy.heard[0]!);
    expect(challenge.frames.map((f) => f.kind)).toEqual([Frame.PATH_CHALLENGE]);
    expect(spy.heard[0]!.length).toBeLessThanOrEqual(3 * stolen.length); // anti-amplification
    // It cannot answer: echoing the challenge back fails the tag (another key), and so does anything it makes up.
    spy.socket.send(spy.heard[0]!, server.port, SERVER);
    const forged = Uint8Array.from(stolen);
    forged[Native.HEADER_SIZE]! ^= 0x01;
    forged[Native.PN_OFFSET + 3]! ^= 0x40; // a newer number, too
    spy.socket.send(forged, server.port, SERVER);
    await waitFor(() => link(peer).counters.dropped['bad-tag'] === 2, 5000, 'the forgeries dropped');
    // The same datagram again (now a replay), even many times: no second challenge, no move.
    for (let i = 0; i < 20; i++) spy.socket.send(stolen, server.port, SERVER);
    await waitFor(() => up.length === MESSAGES, 20_000, 'the stream');
    expect(up).toEqual(inOrder(MESSAGES));
    expect(spy.heard).toHaveLength(1);
    expect(moves).toEqual([]);
    expect(peer.endpoint).toBe(`${nat.outside.address}:${nat.outside.port}`);
  }, 40_000);

  it('a native datagram with an unknown token from an unknown address is dropped before any work', async () => {
    const { network, server, peer, up } = await setup();
    const spy = await stranger(network, '192.0.2.67');
    await waitFor(() => up.length >= 10, 10_000, 'traffic');
    const before = server.counters.dropped['unknown-source'];
    const junk = new Uint8Array(40);
    junk[0] = Native.MAGIC;
    junk[1] = 0x42;
    spy.socket.send(junk, server.port, SERVER);
    await waitFor(() => server.counters.dropped['unknown-source'] === before + 1, 5000, 'the drop');
    expect(link(peer).pendingPaths).toBe(0);
    expect(spy.heard).toEqual([]);
  }, 20_000);
});
