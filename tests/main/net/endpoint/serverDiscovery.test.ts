import { describe, expect, it } from 'vitest';
import { Client, Server, discoverLanServers } from '../../../../main/net/index';

// Loopback only: the searcher targets 127.255.255.255 on an ephemeral discovery port.
describe('Server.enableLanDiscovery', () => {
  it('is found by the searcher with its live player count, and stops answering when closed', async () => {
    const server = await Server.listen({ port: 0, host: '127.0.0.1', maxPeers: 6 });
    const handle = await server.enableLanDiscovery('Friday LAN', { port: 0 });
    const search = () => discoverLanServers({ port: handle.port, targets: ['127.255.255.255'], timeoutMs: 400 });

    const before = await search();
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({
      name: 'Friday LAN',
      address: { host: '127.0.0.1', port: server.port },
      playerCount: 0,
      capacity: 6,
    });

    const client = new Client();
    await client.connect('127.0.0.1', server.port);
    expect((await search())[0]?.playerCount).toBe(1);

    await client.close();
    await server.close();
    expect(await search()).toEqual([]);
  });

  it('refuses after the server closed', async () => {
    const server = await Server.listen({ port: 0, host: '127.0.0.1' });
    await server.close();
    await expect(server.enableLanDiscovery('late', { port: 0 })).rejects.toThrow(/closed/);
  });
});
