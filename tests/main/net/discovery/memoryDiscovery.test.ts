import { afterEach, describe, expect, it } from 'vitest';
import {
  DiscoveryPortRegistry,
  createLanBrowser,
  discoverLanServers,
  probeServer,
  startLanDiscovery,
} from '../../../../main/net/discovery';
import { createMemoryNetwork, type MemoryNetwork } from '../../../../main/net/index';
import { ManualScheduler } from '../../../support/manualScheduler';
import { createRecordingLogger, LOOPBACK_BROADCAST, waitFor } from './loopbackHelpers';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A LAN Party responder on the memory network's discovery port. */
async function responder(network: MemoryNetwork, name: string, players = 2) {
  const logger = createRecordingLogger();
  const handle = await startLanDiscovery({
    name,
    gamePort: 7000,
    getPlayerCount: () => players,
    getExtraInfo: () => ({ capacity: 8 }),
    port: 9998,
    instanceId: name.toLowerCase(),
    registry: new DiscoveryPortRegistry(network.openSocket, logger),
    logger,
  });
  cleanups.push(() => handle.close());
  return handle;
}

// Discovery's three ways of asking run on the socket seam: here no datagram leaves the process.
describe('discovery over a memory network', () => {
  it('a one-shot search broadcasts, hears every responder sharing the port, and closes its socket', async () => {
    const network = createMemoryNetwork();
    const alpha = await responder(network, 'Alpha');
    await responder(network, 'Bravo', 5);
    const scheduler = new ManualScheduler(0);
    const searching = discoverLanServers({
      port: 9998,
      targets: [LOOPBACK_BROADCAST],
      attempts: 1,
      timeoutMs: 500,
      openSocket: network.openSocket,
      scheduler,
      logger: createRecordingLogger(),
    });
    await waitFor(() => alpha.stats().replies === 1 && scheduler.pending === 1, 2000, 'the answers and the window');
    // One broadcast query (heard by both) and two replies.
    await waitFor(() => network.stats.delivered === 3, 2000, 'both replies delivered');
    scheduler.advance(500);
    const found = await searching;
    expect(found).toEqual([
      expect.objectContaining({ name: 'Alpha', playerCount: 2, capacity: 8, address: { host: '127.0.0.1', port: 7000 } }),
      expect.objectContaining({ name: 'Bravo', playerCount: 5 }),
    ]);
    expect(network.boundSockets).toBe(2); // the two responders' shared port sockets; the query socket is gone
  });

  it('a browser lists a responder, then sees it go once it stops answering', async () => {
    const network = createMemoryNetwork();
    const arena = await responder(network, 'Arena');
    const scheduler = new ManualScheduler(1_000);
    const browser = createLanBrowser({
      port: 9998,
      targets: [LOOPBACK_BROADCAST],
      intervalMs: 1000,
      openSocket: network.openSocket,
      registry: new DiscoveryPortRegistry(network.openSocket, createRecordingLogger()),
      scheduler,
      logger: createRecordingLogger(),
    });
    cleanups.push(() => browser.stop());
    const gone: string[] = [];
    browser.on('gone', (server) => gone.push(server.name));
    await browser.start();
    await waitFor(() => browser.servers().length === 1, 2000, 'the server listed');
    await arena.close();
    for (let round = 0; round < 4 && gone.length === 0; round += 1) {
      scheduler.advance(1000);
      await browser.refresh();
    }
    expect(gone).toEqual(['Arena']);
  });

  it('a probe asks one address through the same query socket, and hears silence as no-answer', async () => {
    const network = createMemoryNetwork();
    await responder(network, 'Solo', 1);
    const scheduler = new ManualScheduler(0);
    const answered = await probeServer({ host: '127.0.0.1', port: 9998, openSocket: network.openSocket, scheduler });
    expect(answered).toMatchObject({ kind: 'answered', advert: { name: 'Solo', playerCount: 1 }, attempts: 1 });

    const probing = probeServer({ host: '127.0.0.1', port: 9997, openSocket: network.openSocket, scheduler });
    await waitFor(() => scheduler.pending === 3, 2000, 'the resends and the deadline armed');
    scheduler.advance(300);
    expect(await probing).toMatchObject({ kind: 'no-answer', attempts: 3 });
    expect(network.boundSockets).toBe(1);
  });
});
