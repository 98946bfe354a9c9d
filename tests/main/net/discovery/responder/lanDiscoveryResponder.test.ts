import { afterEach, describe, expect, it } from 'vitest';
import {
  DiscoveryPortRegistry,
  buildDiscoveryQuery,
  parseDiscoveryReply,
  startLanDiscovery,
  type LanDiscoveryHandle,
  type LanDiscoveryOptions,
} from '../../../../../main/net/discovery';
import {
  LOOPBACK_BROADCAST,
  createRecordingLogger,
  freeUdpPort,
  openRawPeer,
  settle,
  waitFor,
  type RawPeer,
} from '../loopbackHelpers';
import { ManualScheduler } from '../../../../support/manualScheduler';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function responder(overrides: Partial<LanDiscoveryOptions> = {}): Promise<LanDiscoveryHandle> {
  const logger = createRecordingLogger();
  const handle = await startLanDiscovery({
    name: 'Arena',
    gamePort: 7777,
    getPlayerCount: () => 2,
    port: 0,
    registry: new DiscoveryPortRegistry(undefined, logger),
    logger,
    ...overrides,
  });
  cleanups.push(() => handle.close());
  return handle;
}

async function peer(options?: Parameters<typeof openRawPeer>[0]): Promise<RawPeer> {
  const raw = await openRawPeer(options);
  cleanups.push(() => raw.close());
  return raw;
}

describe('startLanDiscovery on loopback', () => {
  it('answers a reference request with exactly the reference reply and the live player count', async () => {
    let players = 2;
    const server = await responder({ getPlayerCount: () => players });
    const searcher = await peer();
    await searcher.send('GALEDISC1', server.port);
    await waitFor(() => searcher.received.length === 1);
    expect(searcher.received[0]?.text).toBe('GALEDISC1{"name": "Arena", "port": 7777, "player_count": 2}');
    expect(searcher.received[0]?.from.port).toBe(server.port);
    players = 5;
    await searcher.send('GALEDISC1', server.port);
    await waitFor(() => searcher.received.length === 2);
    expect(searcher.received[1]?.text).toBe('GALEDISC1{"name": "Arena", "port": 7777, "player_count": 5}');
    expect(server.stats()).toMatchObject({ requests: 2, replies: 2 });
  });

  it('answers a LAN Party query with the rich fields, echoing the nonce, never larger than the query', async () => {
    const server = await responder({
      instanceId: 'host-1',
      getExtraInfo: () => ({ capacity: 8, passwordProtected: true, gameName: 'Tanks' }),
    });
    const searcher = await peer();
    const query = buildDiscoveryQuery({ instanceId: 'me', nonce: 41 });
    await searcher.send(query, server.port);
    await waitFor(() => searcher.received.length === 1);
    const reply = searcher.received[0]!.bytes;
    expect(reply.length).toBeLessThanOrEqual(query.length);
    expect(parseDiscoveryReply(reply)).toEqual({
      name: 'Arena',
      port: 7777,
      playerCount: 2,
      protocolVersion: 1,
      capacity: 8,
      passwordProtected: true,
      gameName: 'Tanks',
      instanceId: 'host-1',
      nonce: 41,
    });
    expect(server.instanceId).toBe('host-1');
  });

  it('answers requests sent to the loopback broadcast address', async () => {
    const server = await responder();
    const searcher = await peer();
    await searcher.send('GALEDISC1', server.port, LOOPBACK_BROADCAST);
    await waitFor(() => searcher.received.length === 1);
  });

  it('ignores malformed, oversized and reply-shaped datagrams without answering or throwing', async () => {
    const server = await responder();
    const searcher = await peer();
    await searcher.send('GALEDISC1hello', server.port);
    await searcher.send('GALEDISC1'.padEnd(600, ' '), server.port);
    await searcher.send(new Uint8Array([0x47, 0x41, 0x4c, 0x45, 0x44, 0x49, 0x53, 0x43, 0x31, 0xff]), server.port);
    await searcher.send('nonsense', server.port);
    // A reference server answers anything with the magic; answering its reply back would never end.
    await searcher.send('GALEDISC1{"name": "Py", "port": 9000, "player_count": 0}', server.port);
    await settle();
    expect(searcher.received).toEqual([]);
    expect(server.stats()).toMatchObject({ requests: 0, replies: 0, heardAdverts: 1, ignoredMalformed: 4 });
    // Still alive afterwards.
    await searcher.send('GALEDISC1', server.port);
    await waitFor(() => searcher.received.length === 1);
  });

  it('does not answer sources that are not on a connected subnet', async () => {
    const seen: string[] = [];
    const server = await responder({
      isAllowedSource: (address) => {
        seen.push(address);
        return false;
      },
    });
    const searcher = await peer();
    await searcher.send('GALEDISC1', server.port);
    await settle();
    expect(searcher.received).toEqual([]);
    expect(seen).toEqual(['127.0.0.1']);
    expect(server.stats()).toMatchObject({ requests: 1, ignoredForeignSource: 1, replies: 0 });
  });

  it('rate-limits replies per source, refilling with time', async () => {
    const scheduler = new ManualScheduler();
    const server = await responder({ scheduler, rateLimit: { perSource: { burst: 2, perSecond: 1 } } });
    const searcher = await peer();
    for (let i = 0; i < 5; i += 1) await searcher.send('GALEDISC1', server.port);
    await waitFor(() => server.stats().requests === 5);
    await settle(50);
    expect(searcher.received).toHaveLength(2);
    expect(server.stats().ignoredRateLimited).toBe(3);
    scheduler.advance(1000);
    await searcher.send('GALEDISC1', server.port);
    await waitFor(() => searcher.received.length === 3);
    // The budget is per source address (ports are free to spoof); another address has its own.
    const sameAddress = await peer();
    await sameAddress.send('GALEDISC1', server.port);
    await settle(50);
    expect(sameAddress.received).toEqual([]);
    const other = await peer({ address: '127.0.0.2' });
    await other.send('GALEDISC1', server.port);
    await waitFor(() => other.received.length === 1);
  });

  it('caps replies in total across sources', async () => {
    const server = await responder({ rateLimit: { total: { burst: 1, perSecond: 0.001 } } });
    const first = await peer();
    const second = await peer();
    await first.send('GALEDISC1', server.port);
    await waitFor(() => first.received.length === 1);
    await second.send('GALEDISC1', server.port);
    await settle();
    expect(second.received).toEqual([]);
  });

  it('stays silent (and alive) when the game cannot report its player count', async () => {
    let fail = true;
    const logger = createRecordingLogger();
    const server = await responder({
      logger,
      getPlayerCount: () => {
        if (fail) throw new Error('game not ready');
        return 1;
      },
    });
    const searcher = await peer();
    await searcher.send('GALEDISC1', server.port);
    await settle();
    expect(searcher.received).toEqual([]);
    expect(server.stats().infoErrors).toBe(1);
    expect(logger.warnings.join()).toContain('could not read the server info');
    fail = false;
    await searcher.send('GALEDISC1', server.port);
    await waitFor(() => searcher.received.length === 1);
  });

  it('advertises a new name after setName', async () => {
    const server = await responder();
    server.setName('Renamed');
    const searcher = await peer();
    await searcher.send('GALEDISC1', server.port);
    await waitFor(() => searcher.received.length === 1);
    expect(searcher.received[0]?.text).toContain('"name": "Renamed"');
    expect(() => server.setName(3 as unknown as string)).toThrow(TypeError);
  });

  it('announces to injected targets on every interval, and ignores its own announcements', async () => {
    const port = await freeUdpPort();
    const listener = await peer({ port, reuseAddr: true });
    const scheduler = new ManualScheduler();
    const server = await responder({
      port,
      scheduler,
      instanceId: 'announcer',
      announce: { intervalMs: 1000, targets: [LOOPBACK_BROADCAST] },
    });
    await waitFor(() => listener.received.length === 1, 2000, 'first announcement');
    expect(parseDiscoveryReply(listener.received[0]!.bytes)).toMatchObject({ name: 'Arena', instanceId: 'announcer' });
    expect(listener.received[0]?.from.port).toBe(port);
    scheduler.advance(1000);
    await waitFor(() => listener.received.length === 2, 2000, 'second announcement');
    await waitFor(() => server.stats().heardAdverts >= 2, 2000, 'own announcements heard');
    expect(server.stats()).toMatchObject({ announcements: 2, replies: 0 });
    await server.close();
    expect(scheduler.pending).toBe(0);
    expect(await server.announceNow()).toEqual([]);
  });

  it('lets several servers in one process share one discovery socket, each answering', async () => {
    const registry = new DiscoveryPortRegistry(undefined, createRecordingLogger());
    const first = await responder({ registry, name: 'One', gamePort: 1001 });
    const second = await responder({ registry, name: 'Two', gamePort: 1002, port: first.port });
    expect(second.port).toBe(first.port);
    const searcher = await peer();
    await searcher.send('GALEDISC1', first.port);
    await waitFor(() => searcher.received.length === 2);
    expect(searcher.received.map((r) => r.text).sort()).toEqual([
      'GALEDISC1{"name": "One", "port": 1001, "player_count": 2}',
      'GALEDISC1{"name": "Two", "port": 1002, "player_count": 2}',
    ]);
    await first.close();
    await searcher.send('GALEDISC1', second.port);
    await waitFor(() => searcher.received.length === 3);
    expect(searcher.received[2]?.text).toContain('"Two"');
  });

  it('stops answering once closed, and close is idempotent', async () => {
    const server = await responder();
    const searcher = await peer();
    await server.close();
    await server.close();
    await searcher.send('GALEDISC1', server.port);
    await settle();
    expect(searcher.received).toEqual([]);
  });

  it.each<[string, Partial<LanDiscoveryOptions>, RegExp]>([
    ['a game port of 0', { gamePort: 0 }, /gamePort/],
    ['a game port above 65535', { gamePort: 70000 }, /gamePort/],
    ['a missing name', { name: undefined as unknown as string }, /name/],
    ['a missing player count', { getPlayerCount: undefined as unknown as () => number }, /getPlayerCount/],
    ['an invalid discovery port', { port: -1 }, /discovery port/],
    ['an unsafe instance id', { instanceId: 'a"b' }, /instanceId/],
    ['a too-fast announce interval', { announce: { intervalMs: 1, targets: [] } }, /intervalMs/],
  ])('refuses %s', async (_name, overrides, message) => {
    await expect(responder(overrides)).rejects.toThrow(message);
  });

  it('reports a clear error when the discovery port cannot be bound', async () => {
    // 203.0.113.0/24 is TEST-NET-3, on no interface here: binding fails locally with EADDRNOTAVAIL and nothing is sent.
    await expect(responder({ bindAddress: '203.0.113.77' })).rejects.toThrow(
      /cannot listen for LAN discovery on 203\.0\.113\.77/,
    );
  });
});
