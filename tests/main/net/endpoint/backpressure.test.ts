import { afterEach, describe, expect, it } from 'vitest';
import {
  Channel,
  Client,
  SendQueueFullError,
  Server,
  createMemoryNetwork,
  type EndpointOptions,
  type MemoryNetwork,
} from '../../../../main/net/index';
import { Native } from '../../../../main/net/native/wire/nativeWire';
import { waitFor } from '../../../support/waitFor';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const HIGH = 40;
const LOW = 10;
const PORT = 4000;

describe.each([
  { protocol: 'v1', window: 33 },
  { protocol: 'native', window: Native.SEND_WINDOW },
] as const)('backpressure on send ($protocol)', ({ protocol, window }) => {
  const base: EndpointOptions = {
    ...(protocol === 'v1' ? { native: false as const } : {}),
    highWaterMark: HIGH,
    lowWaterMark: LOW,
  };

  async function setup(options: EndpointOptions = {}) {
    const network = createMemoryNetwork();
    const server = await Server.listen({ port: PORT, openSocket: network.openSocket, ...base, ...options });
    cleanups.push(() => server.close());
    const client = async () => {
      const c = new Client({ openSocket: network.openSocket, ...base, ...options });
      cleanups.push(() => c.close());
      await c.connect('127.0.0.1', PORT);
      return c;
    };
    return { network, server, client };
  }

  /** Loses every datagram to `port` (so nothing sent there is acknowledged) until the returned function runs. */
  function blackhole(network: MemoryNetwork, port: number): () => void {
    network.drop = (_d, _from, to) => to.port === port;
    return () => (network.drop = undefined);
  }

  it('sendTo is false from the high-water mark; onDrain fires once, after the backlog drains', async () => {
    const { network, server, client } = await setup();
    const slow = await client();
    const fast = await client();
    const got: number[] = [];
    slow.onMessage('m', (p) => got.push(p.i as number));
    const drained: Array<{ id: number; pending: number }> = [];
    server.onDrain((peer) => drained.push({ id: peer.id, pending: peer.stats().pendingReliable }));
    const heal = blackhole(network, localPort(server, slow.peerId!));
    const results: boolean[] = [];
    for (let i = 0; i < HIGH + 10; i++) results.push(server.sendTo(slow.peerId!, 'm', { i }, Channel.RELIABLE_ORDERED));
    // The send that brings the backlog to HIGH is the first false; all later ones stay false until the drain.
    expect(results.indexOf(false)).toBe(HIGH - 1);
    expect(results.slice(HIGH - 1).every((r) => !r)).toBe(true);
    expect(server.getPeer(slow.peerId!)!.needsDrain).toBe(true);
    // Unreliable sends queue nothing: sent means true. Other peers are unaffected.
    expect(server.sendTo(slow.peerId!, 'u', {}, Channel.UNRELIABLE)).toBe(true);
    expect(server.sendTo(slow.peerId!, 'u', {}, Channel.UNRELIABLE_SEQUENCED)).toBe(true);
    expect(server.sendTo(fast.peerId!, 'm', { i: 0 }, Channel.RELIABLE_ORDERED)).toBe(true);
    expect(drained).toEqual([]);
    heal();
    await waitFor(() => drained.length === 1, 5000, 'the drain');
    expect(drained[0]!.id).toBe(slow.peerId);
    expect(drained[0]!.pending).toBeLessThanOrEqual(LOW);
    expect(server.getPeer(slow.peerId!)!.needsDrain).toBe(false);
    await waitFor(() => got.length === HIGH + 10, 5000, 'every message');
    expect(got).toEqual([...Array(HIGH + 10).keys()]);
    expect(drained).toHaveLength(1); // once, not once per acknowledgement
    expect(server.sendTo(slow.peerId!, 'm', { i: HIGH + 10 }, Channel.RELIABLE_ORDERED)).toBe(true);
  });

  it('Client.send is false from the mark, and onDrain fires once the server has acknowledged', async () => {
    const { network, server, client } = await setup();
    const c = await client();
    const got: number[] = [];
    server.onMessage('m', (_peer, p) => got.push(p.i as number));
    const pendingAtDrain: number[] = [];
    c.onDrain(() => pendingAtDrain.push(c.stats()!.pendingReliable));
    const heal = blackhole(network, PORT);
    const results: boolean[] = [];
    for (let i = 0; i < HIGH + 5; i++) results.push(c.send('m', { i }, Channel.RELIABLE_UNORDERED));
    expect(results.indexOf(false)).toBe(HIGH - 1);
    expect(c.needsDrain).toBe(true);
    expect(c.send('u', {}, Channel.UNRELIABLE)).toBe(true); // sent, so true: the mark is about reliable data
    expect(pendingAtDrain).toEqual([]);
    heal();
    await waitFor(() => pendingAtDrain.length === 1 && got.length === HIGH + 5, 5000, 'the drain and every message');
    expect(c.needsDrain).toBe(false);
    expect(pendingAtDrain).toHaveLength(1);
    expect(pendingAtDrain[0]).toBeLessThanOrEqual(LOW);
    expect(c.send('m', { i: -1 }, Channel.RELIABLE_UNORDERED)).toBe(true);
  });

  it('broadcast is false when any recipient reaches the mark; a peer that leaves gets no drain', async () => {
    const { network, server, client } = await setup();
    const slow = await client();
    const fast = await client();
    const drained: number[] = [];
    server.onDrain((peer) => drained.push(peer.id));
    blackhole(network, localPort(server, slow.peerId!));
    const results: boolean[] = [];
    const fastPending = () => server.getPeer(fast.peerId!)!.stats().pendingReliable;
    for (let i = 0; i < HIGH; i++) {
      results.push(server.broadcast('m', { i }, { channel: Channel.RELIABLE_ORDERED }));
      await waitFor(() => fastPending() === 0, 3000, 'the fast peer to acknowledge'); // only the slow one lags
    }
    expect(results.indexOf(false)).toBe(HIGH - 1);
    expect(server.broadcast('m', {}, { exclude: [slow.peerId!] })).toBe(true);
    expect(server.getPeer(fast.peerId!)!.needsDrain).toBe(false);
    const left: number[] = [];
    server.onDisconnect((peer) => left.push(peer.id));
    server.disconnect(slow.peerId!);
    expect(left).toEqual([slow.peerId]);
    // The fast peer keeps acknowledging: the drain list is swept after each batch and forgets the slow one.
    await waitFor(() => fastPending() === 0, 3000, 'the fast peer');
    expect(drained).toEqual([]);
    expect(server.broadcast('m', {}, { channel: Channel.RELIABLE_ORDERED })).toBe(true);
  });

  it('keeps SendQueueFullError at the hard limit, past the mark', async () => {
    const QUEUE = 100;
    const { network, server, client } = await setup({ maxQueued: QUEUE });
    const c = await client();
    blackhole(network, localPort(server, c.peerId!));
    for (let i = 0; i < window + QUEUE; i++) server.sendTo(c.peerId!, 'm', { i }, Channel.RELIABLE_ORDERED);
    expect(() => server.sendTo(c.peerId!, 'm', {}, Channel.RELIABLE_ORDERED)).toThrow(SendQueueFullError);
  });
});

describe('backpressure options', () => {
  it('default to a quarter and an eighth of maxQueued, and reject marks that make no sense', async () => {
    const network = createMemoryNetwork();
    const server = await Server.listen({ port: PORT, openSocket: network.openSocket, maxQueued: 8, native: false });
    cleanups.push(() => server.close());
    const c = new Client({ openSocket: network.openSocket, native: false });
    cleanups.push(() => c.close());
    await c.connect('127.0.0.1', PORT);
    network.drop = (_d, _from, to) => to.port !== PORT;
    // maxQueued 8: high-water mark 2.
    expect(server.sendTo(c.peerId!, 'm', {}, Channel.RELIABLE_ORDERED)).toBe(true);
    expect(server.sendTo(c.peerId!, 'm', {}, Channel.RELIABLE_ORDERED)).toBe(false);
    expect(() => new Client({ highWaterMark: 0 })).toThrow(/highWaterMark must be a whole number/);
    expect(() => new Client({ highWaterMark: 10, lowWaterMark: 10 })).toThrow(/lowWaterMark must be/);
    expect(() => new Client({ lowWaterMark: -1 })).toThrow(/lowWaterMark must be/);
    expect(() => new Client({ maxQueued: 0 })).toThrow(/maxQueued must be/);
    expect(() => new Client({ highWaterMark: 1.5 })).toThrow(RangeError);
  });
});

/** The client-side port of a peer: where the server's datagrams to it go. */
function localPort(server: Server, peerId: number): number {
  return server.getPeer(peerId)!.port;
}
