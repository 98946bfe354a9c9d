import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Client, ReservedType, Server } from '../../main/net/index';
import { datagram, rawPeer, type RawPeer } from '../support/labRawPeer';
import { sleep, waitFor } from '../support/waitFor';

const FLOOD = 256;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** FLOOD raw sockets over 64 loopback source addresses (127.0.x.y); none answers anything. */
async function flooders(serverPort: number): Promise<RawPeer[]> {
  const peers: RawPeer[] = [];
  for (let i = 0; i < FLOOD; i++) {
    const p = await rawPeer(serverPort, `127.0.${1 + (i % 8)}.${10 + ((i >> 3) % 8)}`, 64);
    p.answerPings = false;
    cleanups.push(() => p.close());
    peers.push(p);
  }
  return peers;
}

/** Every flooder sends `rounds` connect requests, `gapMs` apart (the reference retries every 500 ms). */
async function flood(peers: RawPeer[], rounds: number, gapMs: number): Promise<void> {
  for (let r = 0; r < rounds; r++) {
    for (const p of peers) p.send({ type: ReservedType.CONNECT_REQUEST, token: 0n });
    await sleep(gapMs);
  }
}

/** A real client that echoes reliably through `server`, and a way to run n round trips. */
async function echoClient(server: Server, connectTimeout = 5) {
  server.onMessage('echo', (peer, m) => server.sendTo(peer.id, 'echo', m, Channel.RELIABLE_ORDERED));
  const client = new Client();
  cleanups.push(() => client.close());
  const back: number[] = [];
  client.onMessage('echo', (m) => back.push(m.i as number));
  let disconnected = '';
  client.onDisconnect((r) => (disconnected = r));
  const roundTrips = async (n: number) => {
    const from = back.length;
    for (let i = from; i < from + n; i++) client.send('echo', { i }, Channel.RELIABLE_ORDERED);
    await waitFor(() => back.length === from + n, 5000, `${n} echoes`);
    expect(back).toEqual([...Array(from + n).keys()]);
  };
  return {
    client,
    connect: () => client.connect('127.0.0.1', server.port, { timeout: connectTimeout }),
    roundTrips,
    disconnected: () => disconnected,
  };
}

describe(`abuse: a flood of connect requests from ${FLOOD} sockets on 64 loopback addresses`, () => {
  it('without maxPeers: every source gets a slot, a real client echoes throughout, idle slots are reclaimed', async () => {
    const server = await Server.listen({ port: 0, host: '127.0.0.1', timeout: 2, heartbeatInterval: 0.5 });
    cleanups.push(() => server.close());
    const echo = await echoClient(server);
    await echo.connect();
    const peers = await flooders(server.port);
    const flooding = flood(peers, 4, 50);
    await echo.roundTrips(50); // during the flood
    await flooding;
    await waitFor(() => server.getPeers().length === FLOOD + 1, 3000, 'every flooder accepted');
    // One slot per source: repeated requests got the same token back, as in the reference.
    for (const p of peers.slice(0, 16)) {
      const accepts = p.received.filter((r) => r.message?.type === ReservedType.CONNECT_ACCEPTED);
      expect(accepts.length).toBeGreaterThanOrEqual(1);
      expect(new Set(accepts.map((a) => a.header.token)).size).toBe(1);
    }
    // Never answering anything after the accept, they are reclaimed by the silence timeout.
    await waitFor(() => server.getPeers().length === 1, 6000, 'flood peers reclaimed');
    await echo.roundTrips(50);
    expect(echo.disconnected()).toBe('');
    // What a source that never speaks again costs the server in replies: accepts, then pings until the timeout.
    const request = datagram(
      { channel: 0, token: 0n, sequence: 0, ack: 0, ackBitfield: 0 },
      ReservedType.CONNECT_REQUEST,
    );
    const replied = peers.reduce((n, p) => n + p.received.reduce((b, r) => b + r.size, 0), 0) / FLOOD;
    console.log(
      `[lab flood] ${FLOOD} flooders accepted; per flooder: sent 4 × ${request.byteLength} B, server replied ` +
        `${replied.toFixed(0)} B (${(replied / (4 * request.byteLength)).toFixed(1)}×) before reclaiming the slot`,
    );
  }, 20_000);

  it('with maxPeers: silent peers never confirm, so the flood churns their slots and a real client still gets in', async () => {
    const server = await Server.listen({
      port: 0,
      host: '127.0.0.1',
      maxPeers: 16,
      timeout: 2,
      heartbeatInterval: 0.5,
    });
    cleanups.push(() => server.close());
    const echo = await echoClient(server, 1);
    const peers = await flooders(server.port);
    let most = 0;
    server.onConnect(() => (most = Math.max(most, server.getPeers().length)));
    await flood(peers, 1, 20);
    await waitFor(() => server.getPeers().length === 16, 2000, 'slots filled');
    // v1 has no address check, but a source that never speaks after its accept holds no slot against a newcomer.
    const started = performance.now();
    await echo.connect();
    expect(performance.now() - started).toBeLessThan(1000);
    await echo.roundTrips(20);
    expect(most).toBeLessThanOrEqual(16);
    expect(server.getPeers()).toHaveLength(16);
    // Unconfirmed peers get no heartbeats: each spoofed request reflects its accept and nothing more.
    const pings = peers.reduce((n, p) => n + p.received.filter((r) => r.message?.type === ReservedType.PING).length, 0);
    expect(pings).toBe(0);
  }, 20_000);
});
