import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Client, Server } from '../../../../main/net/index';
import { startLossyRelay } from '../../../support/lossyRelay';
import { waitFor } from '../../../support/waitFor';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('transport through a lossy, duplicating, reordering relay on 127.0.0.1', () => {
  it('delivers both reliable channels completely: ordered in order, unordered once each, both directions', async () => {
    const server = await Server.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => server.close());
    const relay = await startLossyRelay(server.port, { drop: 0.15, duplicate: 0.1, reorder: 0.1 }, 5);
    cleanups.push(relay.close);
    const ordered: number[] = [];
    const unordered: number[] = [];
    const back: number[] = [];
    server.onMessage('o', (_p, m) => ordered.push(m.i as number));
    server.onMessage('u', (_p, m) => unordered.push(m.i as number));
    server.onMessage('o', (peer, m) => server.sendTo(peer.id, 'echo', { i: m.i as number }, Channel.RELIABLE_ORDERED));
    const client = new Client();
    cleanups.push(() => client.close());
    client.onMessage('echo', (m) => back.push(m.i as number));
    let disconnected = false;
    client.onDisconnect(() => (disconnected = true));
    await client.connect('127.0.0.1', relay.port);
    for (let i = 0; i < 2000; i++) {
      client.send('o', { i }, Channel.RELIABLE_ORDERED);
      client.send('u', { i }, Channel.RELIABLE_UNORDERED);
    }
    await waitFor(
      () => ordered.length === 2000 && unordered.length >= 2000 && back.length === 2000,
      30_000,
      'delivery',
    );
    expect(ordered).toEqual([...Array(2000).keys()]);
    expect(back).toEqual([...Array(2000).keys()]);
    expect(unordered).toHaveLength(2000);
    expect(new Set(unordered).size).toBe(2000);
    expect(disconnected).toBe(false);
    expect(server.getPeers()[0]!.connection.counters.duplicatesReceived).toBeGreaterThan(0);
  });
});
