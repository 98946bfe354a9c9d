import { afterEach, describe, expect, it } from 'vitest';
import { Channel } from '../../../../shared/net/channel';
import { Client, Server } from '../../../../main/net/index';
import { NativeConnection } from '../../../../main/net/native/nativeConnection';
import { recvWindowFor } from '../../../../main/net/native/handshake/negotiation';
import { MAX_FRAME_OVERHEAD, Native } from '../../../../main/net/native/wire/nativeWire';
import { NativePair, text } from '../../../support/nativePair';
import { waitFor } from '../../../support/waitFor';

/** Most a sender may exceed the window by: one unit on each reliable channel (an idle channel may always send one). */
const SLACK = 2 * (Native.DEFAULT_MTU - Native.HEADER_SIZE);
const WINDOW = 16 * 1024;
const RTT_LINK = { latency: 0.01 };

/** Runs a pair until b has `count` messages, recording a's largest flight; returns it and the virtual time taken. */
function runWatching(pair: NativePair, count: number, seconds = 60) {
  const start = pair.now;
  let peak = pair.a.flight.inFlight;
  pair.run(seconds, 0.005, () => {
    peak = Math.max(peak, pair.a.flight.inFlight);
    return pair.received.b.length === count || pair.closed.b !== undefined;
  });
  return { peak, took: pair.now - start };
}

describe('native flow control: reliable bytes in flight never outgrow the receiver’s window', () => {
  it('a 1 MiB message to a 16 KiB window leaves a window at a time and arrives whole, with no retransmission', () => {
    const pair = new NativePair(RTT_LINK, RTT_LINK, 7, { a: { peerRecvWindow: WINDOW } });
    const payload = { s: text(1 << 20, 3) };
    pair.send('a', 'big', payload, Channel.RELIABLE_ORDERED);
    pair.flush();
    expect(pair.a.flight.limit).toBe(WINDOW);
    // Before any ack could come back: about a window's worth of datagrams, not the whole megabyte.
    expect(pair.sent.a.length).toBeLessThanOrEqual(Math.ceil((WINDOW + SLACK) / (Native.DEFAULT_MTU - 40)));
    expect(pair.a.flight.inFlight).toBeLessThanOrEqual(WINDOW + SLACK);
    const { peak, took } = runWatching(pair, 1);
    expect(peak).toBeLessThanOrEqual(WINDOW + SLACK);
    expect(pair.received.b.map(([, p]) => p.s)).toEqual([payload.s]);
    expect(pair.a.counters.retransmits).toBe(0);
    pair.run(1, 0.005, () => pair.a.pendingReliable === 0);
    expect(pair.a.flight.inFlight).toBe(0); // every byte given back once acknowledged
    // Paced by the window: 1 MiB / 16 KiB ≈ 64 round trips of 20 ms.
    expect(took).toBeGreaterThan(0.9);
  });

  it('a large window lets the same message go in about one round trip', () => {
    const pair = new NativePair(RTT_LINK, RTT_LINK, 7, { a: { peerRecvWindow: 4 << 20 } });
    pair.send('a', 'big', { s: text(1 << 20, 3) }, Channel.RELIABLE_ORDERED);
    const { peak, took } = runWatching(pair, 1);
    expect(peak).toBeGreaterThan(1 << 20);
    expect(took).toBeLessThan(0.1);
  });

  it('both reliable channels share the one window, and each gets through', () => {
    const pair = new NativePair(RTT_LINK, RTT_LINK, 8, { a: { peerRecvWindow: WINDOW } });
    const ordered = { s: text(200_000, 1) };
    const unordered = { s: text(200_000, 2) };
    pair.send('a', 'o', ordered, Channel.RELIABLE_ORDERED);
    pair.send('a', 'u', unordered, Channel.RELIABLE_UNORDERED);
    for (let i = 0; i < 500; i++) pair.send('a', 'small', { i }, Channel.RELIABLE_UNORDERED);
    const { peak } = runWatching(pair, 502);
    expect(peak).toBeLessThanOrEqual(WINDOW + SLACK);
    const byType = (t: string) => pair.received.b.filter(([type]) => type === t).map(([, p]) => p);
    expect(byType('o')).toEqual([ordered]);
    expect(byType('u')).toEqual([unordered]);
    expect(
      byType('small')
        .map((p) => p.i as number)
        .sort((x, y) => x - y),
    ).toEqual([...Array(500).keys()]);
  });

  it('under 10% loss and reordering the window still moves, and never overflows', () => {
    const bad = { loss: 0.1, latency: 0.01, jitter: 0.008 };
    const pair = new NativePair(bad, bad, 9, { a: { peerRecvWindow: WINDOW } });
    const payload = { s: text(300_000, 4) };
    pair.send('a', 'big', payload, Channel.RELIABLE_UNORDERED);
    for (let i = 0; i < 300; i++) pair.send('a', 'n', { i }, Channel.RELIABLE_ORDERED);
    const { peak } = runWatching(pair, 301);
    expect(pair.closed).toEqual({ a: undefined, b: undefined });
    expect(peak).toBeLessThanOrEqual(WINDOW + SLACK);
    expect(pair.received.b.find(([t]) => t === 'big')?.[1]).toEqual(payload);
    expect(pair.received.b.filter(([t]) => t === 'n').map(([, p]) => p.i)).toEqual([...Array(300).keys()]);
    expect(pair.a.counters.retransmits).toBeGreaterThan(0); // the loss was real
  });

  it('a connection told nothing assumes the smallest window', () => {
    const pair = new NativePair({}, {}, 1, { a: { peerRecvWindow: undefined } });
    expect(pair.a.flight).toEqual({ inFlight: 0, limit: Native.MIN_RECV_WINDOW });
    expect(MAX_FRAME_OVERHEAD).toBeLessThan(SLACK);
  });
});

describe('native flow control between real sockets', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it('each side paces its sends by the window the other advertised from its granted buffer', async () => {
    const server = await Server.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => server.close());
    // A small buffer, as stock Linux or Windows would grant: a burst of 2 MiB would overflow it many times over.
    const client = new Client({ recvBufferSize: 64 * 1024 });
    cleanups.push(() => client.close());
    const got: string[] = [];
    client.onMessage('big', (p) => got.push(p.s as string));
    await client.connect('127.0.0.1', server.port);
    const peer = server.getPeers()[0]!;
    const toClient = peer.connection as NativeConnection;
    expect(toClient).toBeInstanceOf(NativeConnection);
    expect(client.recvBufferSize).toBeLessThan(server.recvBufferSize);
    expect(toClient.flight.limit).toBe(recvWindowFor(client.recvBufferSize));
    const toServer = (client as unknown as { connection: NativeConnection }).connection;
    expect(toServer.flight.limit).toBe(recvWindowFor(server.recvBufferSize));

    const payload = text(2 << 20, 5);
    server.sendTo(peer.id, 'big', { s: payload }, Channel.RELIABLE_ORDERED);
    expect(toClient.flight.inFlight).toBeLessThanOrEqual(toClient.flight.limit + SLACK);
    await waitFor(() => got.length === 1, 20_000, 'the 2 MiB message');
    expect(got[0] === payload).toBe(true);
    // Nothing was lost to a full receive buffer: every datagram the server sent reaches the client. (Not "no
    // retransmissions": on a starved CPU a late ack can make the timer resend a unit that did arrive.)
    await waitFor(
      () => toServer.counters.datagramsReceived === toClient.counters.datagramsSent,
      2_000,
      'every datagram the server sent to arrive',
    );
  });
});
