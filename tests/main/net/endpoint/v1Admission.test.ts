import { afterEach, describe, expect, it } from 'vitest';
import { Client, Server, type Peer } from '../../../../main/net/index';
import { ReservedType } from '../../../../main/net/v1/protocol';
import { PEER_ID_WINDOW } from '../../../../main/net/endpoint/intake/peerIds';
import { rawPeer, type RawPeer } from '../../../support/labRawPeer';
import { sleep, waitFor } from '../../../support/waitFor';

// A v1 server keeps nothing for an address until a datagram echoes the token of an accept sent there.

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function listen(options: Partial<Parameters<typeof Server.listen>[0]> = {}) {
  const server = await Server.listen({ port: 0, host: '127.0.0.1', native: false, ...options });
  cleanups.push(() => server.close());
  const connected: Peer[] = [];
  server.onConnect((p) => connected.push(p));
  return { server, connected };
}

async function raw(port: number, host = '127.0.0.1'): Promise<RawPeer> {
  const peer = await rawPeer(port, host);
  cleanups.push(() => peer.close());
  return peer;
}

const accepts = (p: RawPeer) => p.received.filter((r) => r.message?.type === ReservedType.CONNECT_ACCEPTED);

describe('v1 admission', () => {
  it('answers requests with accepts but keeps no peer until the token comes back; then the named id connects', async () => {
    const { server, connected } = await listen();
    const p = await raw(server.port);
    await p.handshake(2000, false);
    p.send({ type: ReservedType.CONNECT_REQUEST, token: 0n });
    await waitFor(() => accepts(p).length >= 2, 2000, 'a second accept');
    await sleep(50);
    expect(server.getPeers()).toEqual([]);
    expect(connected).toEqual([]);
    expect(p.peerId).toBe(1);
    p.send({ type: ReservedType.PING, payload: { id: 9 } });
    await waitFor(() => p.received.some((r) => r.message?.type === ReservedType.PONG), 2000, 'the pong');
    expect(connected.map((c) => [c.id, c.token])).toEqual([[1, p.token]]);
    expect(server.getPeers()).toHaveLength(1);
    // From now on a request from that address is a repeat: the peer's own accept again, no new peer. (Counted from
    // here: the handshake may have asked twice, and a fresh accept names a fresh token.)
    const seen = accepts(p).length;
    p.send({ type: ReservedType.CONNECT_REQUEST, token: 0n });
    await waitFor(() => accepts(p).slice(seen).some((a) => a.header.token === p.token), 2000, 'the repeated accept');
    expect(connected).toHaveLength(1);
  });

  it('fires onConnect for a client that connects and then only heartbeats', async () => {
    const { server, connected } = await listen();
    const client = new Client({ native: false });
    cleanups.push(() => client.close());
    await client.connect('127.0.0.1', server.port, { timeout: 2 });
    expect(connected.map((p) => p.id)).toEqual([client.peerId]);
    expect(server.getPeer(client.peerId!)?.token).toBe(client.token);
  });

  it('a token is worth nothing from another address or port, nor after its peer left', async () => {
    const { server, connected } = await listen();
    const p = await raw(server.port);
    p.answerPings = false;
    await p.handshake(2000, false);
    const thief = await raw(server.port, '127.0.0.2');
    thief.token = p.token;
    const before = server.counters.dropped['unknown-source'];
    thief.send({ type: ReservedType.PING, payload: { id: 1 } });
    await waitFor(() => server.counters.dropped['unknown-source'] === before + 1, 2000, 'the stolen token');
    expect(connected).toEqual([]);
    p.send({ type: ReservedType.PING, payload: { id: 2 } });
    await waitFor(() => connected.length === 1, 2000, 'the real peer');
    const left: string[] = [];
    server.onDisconnect((_p, reason) => left.push(reason));
    server.disconnect(connected[0]!.id, 'kicked');
    expect(left).toEqual(['kicked']);
    p.send({ type: ReservedType.PING, payload: { id: 3 } });
    await waitFor(() => server.counters.dropped['unknown-source'] >= before + 2, 2000, 'the spent token');
    expect(server.getPeers()).toEqual([]);
    expect(connected).toHaveLength(1);
  });

  it('accepts never redeemed spend no peer id: after a flood of them a client still gets a low id', async () => {
    const { server } = await listen({ connectLimits: false });
    const forger = await raw(server.port);
    const flood = PEER_ID_WINDOW * 3;
    for (let i = 0; i < flood; i++) forger.send({ type: ReservedType.CONNECT_REQUEST, token: 0n });
    await waitFor(() => accepts(forger).length === flood, 5000, 'the accepts');
    const named = accepts(forger).map((a) => a.message!.payload.peer_id as number);
    expect(Math.max(...named)).toBe(PEER_ID_WINDOW);
    const client = new Client({ native: false });
    cleanups.push(() => client.close());
    await client.connect('127.0.0.1', server.port, { timeout: 2 });
    expect(client.peerId).toBeLessThanOrEqual(PEER_ID_WINDOW);
    expect(server.getPeers().map((p) => p.id)).toEqual([client.peerId]);
  });

  it('at maxPeers a request gets no accept, and a proof that comes too late gets no peer', async () => {
    const { server, connected } = await listen({ maxPeers: 1 });
    const early = await raw(server.port);
    await early.handshake(2000, false); // accepted while a slot was free, not proven yet
    const first = new Client({ native: false });
    cleanups.push(() => first.close());
    await first.connect('127.0.0.1', server.port, { timeout: 2 });
    const late = await raw(server.port, '127.0.0.3');
    await expect(late.handshake(300, false)).rejects.toThrow(/no accept/);
    expect(server.counters.dropped['server-full']).toBeGreaterThan(0);
    const full = server.counters.dropped['server-full'];
    early.send({ type: ReservedType.PING, payload: { id: 1 } });
    await waitFor(() => server.counters.dropped['server-full'] === full + 1, 2000, 'the refused proof');
    expect(connected.map((p) => p.id)).toEqual([first.peerId]);
  });

  it('limits connect requests per address and per /24, counting each kind of drop', async () => {
    const { server } = await listen({
      connectLimits: { perSource: { rate: 0.01, burst: 3 }, perPrefix: { rate: 0.01, burst: 5 } },
    });
    const noisy = await raw(server.port, '127.0.5.1');
    for (let i = 0; i < 10; i++) noisy.send({ type: ReservedType.CONNECT_REQUEST, token: 0n });
    await waitFor(() => server.counters.dropped['source-limited'] === 7, 2000, 'the per-address drops');
    await waitFor(() => accepts(noisy).length === 3, 2000, 'the accepts within the limit');
    const neighbours = await Promise.all([2, 3, 4].map((i) => raw(server.port, `127.0.5.${i}`)));
    for (const n of neighbours) n.send({ type: ReservedType.CONNECT_REQUEST, token: 0n });
    await waitFor(() => server.counters.dropped['prefix-limited'] === 1, 2000, 'the per-/24 drop');
    await waitFor(() => neighbours.filter((n) => accepts(n).length === 1).length === 2, 2000, 'two accepts');
    expect(neighbours.map((n) => accepts(n).length).sort()).toEqual([0, 1, 1]);
    // Guessed tokens from a limited address are not even checked: counted as from an unknown source.
    const unknown = server.counters.dropped['unknown-source'];
    for (let i = 0; i < 5; i++) noisy.send({ type: ReservedType.PING, token: BigInt(i + 1), payload: { id: i } });
    await waitFor(() => server.counters.dropped['unknown-source'] === unknown + 5, 2000, 'the guesses');
    // Another /24 is untouched.
    const elsewhere = await raw(server.port, '127.0.6.1');
    await elsewhere.handshake(2000, true);
    await waitFor(() => server.getPeers().length === 1, 2000, 'the peer from elsewhere');
  });
});
