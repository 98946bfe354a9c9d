import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Client, ReservedType, Server } from '../../main/net/index';
import { connectionSizes } from '../support/labInspect';
import { datagram, rawPeer, type RawPeer } from '../support/labRawPeer';
import { startTapRelay } from '../support/labTapRelay';
import { seededRandom } from '../support/seededRandom';
import { sleep, waitFor } from '../support/waitFor';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function listen(options: Partial<Parameters<typeof Server.listen>[0]> = {}): Promise<Server> {
  const server = await Server.listen({ port: 0, host: '127.0.0.1', ...options });
  cleanups.push(() => server.close());
  return server;
}

async function connectedRaw(server: Server): Promise<RawPeer> {
  const raw = await rawPeer(server.port);
  cleanups.push(() => raw.close());
  await raw.handshake();
  return raw;
}

async function connectedClient(port: number): Promise<Client> {
  const client = new Client();
  cleanups.push(() => client.close());
  await client.connect('127.0.0.1', port);
  return client;
}

/** 64 random bits that are not `avoid`. */
function guessToken(random: () => number, avoid: bigint): bigint {
  for (;;) {
    const t = (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32));
    if (t !== avoid) return t;
  }
}

describe('abuse: a peer that never acknowledges', () => {
  it('keeps its state bounded and is dropped with a reason, while a real client carries on', async () => {
    const server = await listen({ timeout: 1.5, heartbeatInterval: 0.2, retransmit: { maxRto: 0.2 }, maxQueued: 400 });
    const reasons = new Map<number, string>();
    server.onDisconnect((p, reason) => reasons.set(p.id, reason));
    const client = await connectedClient(server.port);
    const ticks: number[] = [];
    client.onMessage('tick', (m) => ticks.push(m.i as number));
    const silent = await connectedRaw(server); // answers pings, so it never times out for silence
    const peer = server.getPeer(silent.peerId!)!;
    let maxInFlight = 0;
    let maxQueued = 0;
    for (let i = 0; i < 300 && reasons.size === 0; i++) {
      server.broadcast('tick', { i }, { channel: Channel.RELIABLE_ORDERED });
      const sizes = connectionSizes(peer.connection);
      maxInFlight = Math.max(maxInFlight, sizes.inFlight[0]!);
      maxQueued = Math.max(maxQueued, sizes.queued[0]!);
      await sleep(10);
    }
    await waitFor(() => reasons.has(silent.peerId!), 8000, 'the silent peer to be dropped');
    expect(reasons.get(silent.peerId!)).toMatch(/not acknowledged after \d+ attempts/);
    // The window filled and stayed at v1's 33; the rest waited in the bounded queue.
    expect(maxInFlight).toBe(33);
    expect(maxQueued).toBeGreaterThan(0);
    expect(maxQueued).toBeLessThanOrEqual(400);
    expect(server.getPeers().map((p) => p.id)).toEqual([client.peerId]);
    // It was retransmitted to, but only within the window: exactly the first 33 sequences, many times.
    const reliable = silent.received.filter((r) => r.header.channel === 1);
    expect(new Set(reliable.map((r) => r.header.sequence))).toEqual(new Set([...Array(33).keys()]));
    expect(reliable.length).toBeGreaterThan(33 * 3);
    await waitFor(() => ticks.length === Math.max(...ticks) + 1, 3000, 'the real client to catch up');
    expect(ticks.length).toBeGreaterThan(100);
    expect(ticks).toEqual([...Array(ticks.length).keys()]);
    expect(client.state).toBe('connected');
  }, 20_000);
});

describe('abuse: huge sequence jumps', () => {
  it('drops far-away sequences, holds at most a window of early ones, and still delivers in order', async () => {
    const server = await listen();
    const got: number[] = [];
    server.onMessage('o', (_p, m) => got.push(m.i as number));
    const raw = await connectedRaw(server);
    const peer = server.getPeer(raw.peerId!)!;
    const send = (sequence: number, i: number) => raw.send({ channel: 1, sequence, type: 'o', payload: { i } });
    send(0, 0);
    const far = [1024 + 1, 5000, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 2 ** 32 - 2, 2 ** 32 - 1];
    far.forEach((s) => send(s, -s));
    // Early arrivals across the whole window (sequence 1 missing), then the gap filled.
    for (let s = 2; s <= 1024; s++) send(s, s);
    await waitFor(() => peer.connection.counters.dropped['out-of-window'] === far.length, 3000, 'jumps dropped');
    await waitFor(() => connectionSizes(peer.connection).receiverBuffered[0] === 1023, 3000, 'held back');
    expect(got).toEqual([0]);
    send(1, 1);
    await waitFor(() => got.length === 1025, 3000, 'the held-back run');
    expect(got).toEqual([...Array(1025).keys()]);
    expect(connectionSizes(peer.connection).receiverBuffered[0]).toBe(0);
    expect(server.getPeers()).toHaveLength(1);
  }, 15_000);

  it('on RELIABLE_UNORDERED: in-window jumps are delivered once, far ones dropped, memory capped at the window', async () => {
    const server = await listen();
    const got: number[] = [];
    server.onMessage('u', (_p, m) => got.push(m.i as number));
    const raw = await connectedRaw(server);
    const peer = server.getPeer(raw.peerId!)!;
    const send = (sequence: number) => raw.send({ channel: 2, sequence, type: 'u', payload: { i: sequence } });
    for (const s of [1023, 1024, 2 ** 31, 2 ** 32 - 1, 1023, 500]) send(s);
    await waitFor(() => peer.connection.counters.dropped['out-of-window'] === 3, 3000, 'jumps dropped');
    await waitFor(() => got.length === 2, 3000, 'in-window deliveries');
    expect(got).toEqual([1023, 500]);
    expect(peer.connection.counters.duplicatesReceived).toBe(1);
    expect(connectionSizes(peer.connection).receiverBuffered[1]).toBe(2);
  }, 10_000);

  it('an acknowledgement naming far-away sequences frees nothing: the message is still retransmitted', async () => {
    const server = await listen({ retransmit: { maxRto: 0.1 } });
    const raw = await connectedRaw(server);
    server.sendTo(raw.peerId!, 'o', { i: 0 }, Channel.RELIABLE_ORDERED);
    for (const ack of [2 ** 31, 2 ** 32 - 1, 33, 1024, 5000])
      raw.send({ channel: 1, ack, ackBitfield: 0xffffffff, type: ReservedType.ACK });
    const before = raw.received.filter((r) => r.message?.type === 'o').length;
    await waitFor(
      () => raw.received.filter((r) => r.message?.type === 'o').length >= before + 2,
      3000,
      'retransmissions of sequence 0',
    );
    expect(server.getPeer(raw.peerId!)!.connection.pendingReliable).toBe(1);
    raw.send({ channel: 1, ack: 0, ackBitfield: 0, type: ReservedType.ACK });
    await waitFor(() => server.getPeer(raw.peerId!)!.connection.pendingReliable === 0, 2000, 'the real ack');
  }, 10_000);
});

describe('abuse: tokens guessed at random', () => {
  const GUESSES = 3000;
  const bodies = [
    { channel: 1, type: 'o' },
    { channel: 2, type: 'o' },
    { channel: 0, type: 'o' },
    { channel: 0, type: ReservedType.DISCONNECT },
    { channel: 0, type: ReservedType.PING },
  ];

  it('at the server, from the peer’s own address and from strangers: every guess dropped and counted', async () => {
    const server = await listen();
    let delivered = 0;
    server.onMessage('o', () => delivered++);
    const victim = await connectedRaw(server);
    const stranger = await rawPeer(server.port, '127.0.0.9');
    cleanups.push(() => stranger.close());
    const random = seededRandom(3);
    const before = { ...server.counters.dropped };
    for (let i = 0; i < GUESSES; i++) {
      const body = bodies[i % bodies.length]!;
      const token = guessToken(random, victim.token);
      (i % 2 ? stranger : victim).send({ ...body, sequence: i, token, payload: { i } });
      if (i % 100 === 0) await sleep(1);
    }
    await waitFor(() => server.counters.droppedTotal - sum(before) === GUESSES, 5000, 'every guess counted');
    expect(server.counters.dropped['bad-token'] - before['bad-token']).toBe(GUESSES / 2);
    expect(server.counters.dropped['unknown-source'] - before['unknown-source']).toBe(GUESSES / 2);
    expect(delivered).toBe(0);
    expect(server.getPeers().map((p) => p.id)).toEqual([victim.peerId]);
  }, 15_000);

  it('at the client, from the server’s address: every guess dropped and counted, the session intact', async () => {
    const server = await listen();
    const relay = await startTapRelay(server.port);
    cleanups.push(relay.close);
    const client = await connectedClient(relay.port);
    let delivered = 0;
    let disconnected = false;
    client.onMessage('o', () => delivered++);
    client.onDisconnect(() => (disconnected = true));
    const random = seededRandom(4);
    const before = client.counters.dropped['bad-token'];
    for (let i = 0; i < GUESSES; i++) {
      const body = bodies[i % bodies.length]!;
      const header = {
        channel: body.channel,
        token: guessToken(random, client.token!),
        sequence: i,
        ack: 0,
        ackBitfield: 0,
      };
      relay.injectToClient(datagram(header, body.type, { i }));
      if (i % 100 === 0) await sleep(1);
    }
    await waitFor(() => client.counters.dropped['bad-token'] - before === GUESSES, 5000, 'every guess counted');
    expect(delivered).toBe(0);
    expect(disconnected).toBe(false);
    server.sendTo(client.peerId!, 'o', { i: 1 }, Channel.RELIABLE_ORDERED);
    await waitFor(() => delivered === 1, 2000, 'a real message after the guesses');
  }, 15_000);
});

function sum(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}
