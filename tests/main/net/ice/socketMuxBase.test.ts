import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Client, Server, createMemoryNetwork } from '../../../../main/net/index';
import { createSocketMux, type SocketMux } from '../../../../main/net/ice';
import { waitFor } from '../../../support/waitFor';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a socket mux over the room’s own socket', () => {
  it('serves LAN guests on the base socket and an internet guest through its own path, in one Server', async () => {
    const lan = createMemoryNetwork({ defaultAddress: '10.0.0.1' });
    let mux: SocketMux | undefined;
    const server = await Server.listen({
      port: 9000,
      host: '10.0.0.1',
      openSocket: async (options) => (mux = createSocketMux(await lan.openSocket(options))).socket,
    });
    cleanups.push(() => server.close());

    // The internet guest's path: a private link of two sockets standing in for a connected, secured ICE pair.
    const path = createMemoryNetwork({ defaultAddress: '192.0.2.1' });
    const hostEnd = await path.openSocket({ port: 7000, host: '192.0.2.1', recvBufferSize: 0 });
    const guestEnd = await path.openSocket({ port: 7001, host: '192.0.2.1', recvBufferSize: 0 });
    await hostEnd.connect(7001, '192.0.2.1');
    const label = mux!.add(hostEnd);
    expect(label.address).toMatch(/^100\.64\.0\.1$/);

    const onLan = new Client({ openSocket: lan.openSocket });
    const overIce = new Client({ openSocket: async () => guestEnd });
    cleanups.push(
      () => onLan.close(),
      () => overIce.close(),
    );
    await onLan.connect('10.0.0.1', 9000);
    await overIce.connect('192.0.2.1', 7000);

    const addresses = server
      .getPeers()
      .map((peer) => peer.address)
      .sort();
    expect(addresses).toEqual(['10.0.0.1', '100.64.0.1']);
    const got: string[] = [];
    onLan.onMessage('news', (p) => got.push(`lan:${p.text as string}`));
    overIce.onMessage('news', (p) => got.push(`ice:${p.text as string}`));
    server.broadcast('news', { text: 'hi' }, { channel: Channel.RELIABLE_ORDERED });
    await waitFor(() => got.length === 2, 2000, 'both guests');
    expect(got.sort()).toEqual(['ice:hi', 'lan:hi']);

    // A removed guest's label routes nowhere (not out of the base socket): the send is lost, as UDP to nobody.
    await mux!.remove(label);
    expect(mux!.size).toBe(0);
    const sentBefore = lan.stats.sent;
    mux!.socket.send(Uint8Array.of(1, 2, 3), label.port, label.address);
    mux!.socket.send(Uint8Array.of(1, 2, 3), 9, '10.0.0.1');
    expect(lan.stats.sent).toBe(sentBefore + 1);
  });
});
