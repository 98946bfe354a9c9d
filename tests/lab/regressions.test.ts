import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Client, ReservedType, SendQueueFullError, Server } from '../../main/net/index';
import { rawPeer } from '../support/labRawPeer';
import { waitFor } from '../support/waitFor';

// Transport bugs the lab suites found, each pinned by the smallest test that shows it.

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('Server.broadcast with a peer whose reliable queue is full (found by the never-acknowledging peer)', () => {
  it('still reaches the other peers, and drops the stuck peer with a reason instead of throwing', async () => {
    // window 33 + queue 100: the 134th reliable message to a peer that acknowledges nothing overflows.
    const server = await Server.listen({ port: 0, host: '127.0.0.1', maxQueued: 100 });
    cleanups.push(() => server.close());
    const reasons = new Map<number, string>();
    server.onDisconnect((p, reason) => reasons.set(p.id, reason));
    const silent = await rawPeer(server.port); // first in the broadcast order, so a throw would skip the client
    cleanups.push(() => silent.close());
    await silent.handshake();
    const client = new Client();
    cleanups.push(() => client.close());
    const got: number[] = [];
    client.onMessage('b', (m) => got.push(m.i as number));
    await client.connect('127.0.0.1', server.port);
    const reached: number[] = [];
    for (let i = 0; i < 140; i++) {
      reached.push(server.broadcast('b', { i }, { channel: Channel.RELIABLE_ORDERED }));
      if (i % 10 === 9) await waitFor(() => got.length > i - 20, 2000, 'the client to keep up');
    }
    await waitFor(() => got.length === 140, 3000, 'every broadcast at the client');
    expect(got).toEqual([...Array(140).keys()]);
    expect(reached.slice(0, 133).every((n) => n === 2)).toBe(true);
    expect(reached.slice(133)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(reasons.get(silent.peerId!)).toMatch(/send queue is full \(100 messages waiting\)/);
    await waitFor(() => silent.received.some((r) => r.message?.type === ReservedType.DISCONNECT), 2000, 'goodbye');
  }, 10_000);

  it('sendTo to such a peer still throws SendQueueFullError, leaving the decision to the caller', async () => {
    const server = await Server.listen({ port: 0, host: '127.0.0.1', maxQueued: 100 });
    cleanups.push(() => server.close());
    const silent = await rawPeer(server.port);
    cleanups.push(() => silent.close());
    await silent.handshake();
    for (let i = 0; i < 133; i++) server.sendTo(silent.peerId!, 'b', { i }, Channel.RELIABLE_ORDERED);
    expect(() => server.sendTo(silent.peerId!, 'b', { i: 133 }, Channel.RELIABLE_ORDERED)).toThrow(SendQueueFullError);
    expect(server.getPeers()).toHaveLength(1);
  }, 10_000);
});
