import { afterEach, describe, expect, it } from 'vitest';
import {
  DiscoveryPortRegistry,
  createLanBrowser,
  type BrowsedServer,
  type LanBrowser,
  type LanBrowserOptions,
  type LanDiscoveryOptions,
  type SendFailure,
} from '../../../../../main/net/discovery';
import {
  LOOPBACK_BROADCAST,
  createRecordingLogger,
  freeUdpPort,
  failingSocket,
  openRawPeer,
  settle,
  waitFor,
  startTestResponder,
} from '../loopbackHelpers';
import { ManualScheduler } from '../../../../support/manualScheduler';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const server = (port: number, overrides: Partial<LanDiscoveryOptions> = {}) =>
  startTestResponder(port, cleanups, overrides);

interface Recorded {
  appeared: BrowsedServer[];
  changed: Array<[BrowsedServer, BrowsedServer]>;
  gone: BrowsedServer[];
  sendErrors: SendFailure[];
}

function browser(
  port: number,
  scheduler: ManualScheduler,
  overrides: Partial<LanBrowserOptions> = {},
): { browser: LanBrowser; events: Recorded } {
  const logger = createRecordingLogger();
  const created = createLanBrowser({
    port,
    scheduler,
    intervalMs: 1000,
    goneAfterMs: 3500,
    targets: [LOOPBACK_BROADCAST],
    listenForAnnouncements: false,
    registry: new DiscoveryPortRegistry(undefined, logger),
    logger,
    ...overrides,
  });
  const events: Recorded = { appeared: [], changed: [], gone: [], sendErrors: [] };
  created.on('appeared', (s) => events.appeared.push(s));
  created.on('changed', (s, previous) => events.changed.push([s, previous]));
  created.on('gone', (s) => events.gone.push(s));
  created.on('sendError', (f) => events.sendErrors.push(f));
  cleanups.push(() => created.stop());
  return { browser: created, events };
}

describe('createLanBrowser on loopback', () => {
  it('reports servers appearing with a measured ping, changing, and going away', async () => {
    const port = await freeUdpPort();
    let players = 1;
    const arena = await server(port, {
      name: 'Arena',
      gamePort: 7001,
      instanceId: 'arena',
      getPlayerCount: () => players,
    });
    const scheduler = new ManualScheduler(10_000);
    let targets: string[] = [];
    const { browser: lan, events } = browser(port, scheduler, { targets: () => targets });
    await lan.start();
    targets = [LOOPBACK_BROADCAST];
    const round = lan.refresh();
    scheduler.advance(42); // the reply can only be handled after this synchronous step: ping is exactly 42
    await round;
    await waitFor(() => events.appeared.length === 1, 2000, 'appeared');
    expect(events.appeared[0]).toMatchObject({
      name: 'Arena',
      address: { host: '127.0.0.1', port: 7001 },
      playerCount: 1,
      instanceId: 'arena',
      pingMs: 42,
      firstSeenAt: 10_042,
    });
    expect(lan.running).toBe(true);
    expect(scheduler.pending).toBe(1);

    players = 3;
    scheduler.advance(958); // the next round is due at 11 000
    await waitFor(() => events.changed.length === 1, 2000, 'changed');
    const [now, before] = events.changed[0]!;
    expect(now).toMatchObject({ playerCount: 3, pingMs: 0 });
    expect(before.playerCount).toBe(1);
    expect(lan.servers().map((s) => s.playerCount)).toEqual([3]);

    await arena.close();
    scheduler.advance(3000); // 3000 ms of silence (three rounds unanswered): not gone yet
    await lan.refresh();
    expect(events.gone).toEqual([]);
    scheduler.advance(501); // 3501 ms > goneAfterMs
    await lan.refresh();
    expect(events.gone.map((s) => s.name)).toEqual(['Arena']);
    expect(lan.servers()).toEqual([]);
  });

  it('hears announcements on the discovery port without querying (no ping then)', async () => {
    const port = await freeUdpPort();
    const scheduler = new ManualScheduler();
    const { browser: lan, events } = browser(port, scheduler, { targets: [], listenForAnnouncements: true });
    await lan.start();
    await server(port, {
      name: 'Loud',
      instanceId: 'loud',
      announce: { intervalMs: 1000, targets: [LOOPBACK_BROADCAST] },
    });
    await waitFor(() => events.appeared.length === 1, 2000, 'announcement');
    expect(events.appeared[0]).toMatchObject({ name: 'Loud', instanceId: 'loud' });
    expect(events.appeared[0]).not.toHaveProperty('pingMs');
  });

  it('shares the discovery socket with a responder in the same process', async () => {
    const port = await freeUdpPort();
    const registry = new DiscoveryPortRegistry(undefined, createRecordingLogger());
    const scheduler = new ManualScheduler();
    const host = await server(port, {
      name: 'Here',
      instanceId: 'here',
      registry,
      announce: { intervalMs: 1000, targets: [LOOPBACK_BROADCAST] },
    });
    const { browser: lan, events } = browser(port, scheduler, { registry, targets: [], listenForAnnouncements: true });
    await lan.start();
    await host.announceNow();
    await waitFor(() => events.appeared.length === 1, 2000, 'own announcement');
    // Our own queries reach that shared socket too, and are not mistaken for servers.
    await lan.stop();
    const { browser: again, events: more } = browser(port, scheduler, { registry, listenForAnnouncements: true });
    await again.start();
    await waitFor(() => more.appeared.length === 1, 2000, 'reply');
    await settle(50);
    expect(again.servers().map((s) => s.name)).toEqual(['Here']);
  });

  it('leaves out ignored instance ids', async () => {
    const port = await freeUdpPort();
    await server(port, { name: 'Mine', instanceId: 'mine' });
    await server(port, { name: 'Theirs', instanceId: 'theirs' });
    const { browser: lan, events } = browser(port, new ManualScheduler(), { ignoreInstanceIds: ['mine'] });
    await lan.start();
    await waitFor(() => events.appeared.length === 1);
    await settle(50);
    expect(lan.servers().map((s) => s.name)).toEqual(['Theirs']);
  });

  it('emits sendError per failed destination and keeps browsing', async () => {
    const port = await freeUdpPort();
    await server(port, { name: 'Fine' });
    const scheduler = new ManualScheduler();
    const { browser: lan, events } = browser(port, scheduler, {
      targets: ['127.0.0.9', LOOPBACK_BROADCAST],
      // Sends to 127.0.0.9 fail as a firewall or an unreachable network would; nothing leaves loopback.
      openSocket: failingSocket('127.0.0.9', 'ENETUNREACH'),
    });
    await lan.start();
    await waitFor(() => events.appeared.length === 1);
    expect(events.sendErrors).toEqual([expect.objectContaining({ target: '127.0.0.9', port, code: 'ENETUNREACH' })]);
    expect(events.sendErrors[0]).not.toHaveProperty('hint');
  });

  it('reads target lists from a function every round', async () => {
    const port = await freeUdpPort();
    await server(port, { name: 'Late' });
    let targets: string[] = [];
    const scheduler = new ManualScheduler();
    const { browser: lan, events } = browser(port, scheduler, { targets: () => targets });
    await lan.start();
    await settle(50);
    expect(events.appeared).toEqual([]);
    targets = [LOOPBACK_BROADCAST];
    scheduler.advance(1000);
    await waitFor(() => events.appeared.length === 1);
  });

  it('stops cleanly: no timers, no events, empty list; and can start again', async () => {
    const port = await freeUdpPort();
    const peer = await server(port, { name: 'Again', instanceId: 'again' });
    const scheduler = new ManualScheduler();
    const { browser: lan, events } = browser(port, scheduler);
    await lan.start();
    await waitFor(() => events.appeared.length === 1);
    await lan.stop();
    await lan.stop();
    expect(lan.running).toBe(false);
    expect(scheduler.pending).toBe(0);
    expect(lan.servers()).toEqual([]);
    await peer.announceNow();
    await lan.refresh();
    await settle(50);
    expect(events.appeared).toHaveLength(1);
    await lan.start();
    await waitFor(() => events.appeared.length === 2);
  });

  it('survives a listener that throws, and logs it', async () => {
    const port = await freeUdpPort();
    await server(port, { name: 'Robust' });
    const scheduler = new ManualScheduler();
    const logger = createRecordingLogger();
    const { browser: lan, events } = browser(port, scheduler, { logger });
    lan.on('appeared', () => {
      throw new Error('UI bug');
    });
    await lan.start();
    await waitFor(() => events.appeared.length === 1);
    expect(logger.warnings).toEqual(["listener for 'appeared' threw"]);
  });

  it('stops calling a removed listener, and refuses an event it does not have', async () => {
    const port = await freeUdpPort();
    await server(port, { name: 'Once', instanceId: 'once' });
    const { browser: lan, events } = browser(port, new ManualScheduler());
    const seen: string[] = [];
    const off = lan.on('appeared', (s) => seen.push(s.name));
    off();
    await lan.start();
    await waitFor(() => events.appeared.length === 1);
    expect(seen).toEqual([]);
    expect(() => lan.on('vanished' as 'gone', () => undefined)).toThrow(/no event 'vanished'/);
  });

  it('still browses by query when the discovery port cannot be shared', async () => {
    const port = await freeUdpPort();
    // An exclusive (non-reuseAddr) socket on the port makes the browser's announcement listener fail to bind.
    const blocker = await openRawPeer({ port });
    cleanups.push(() => blocker.close());
    const logger = createRecordingLogger();
    const { browser: lan } = browser(port, new ManualScheduler(), { listenForAnnouncements: true, logger });
    await lan.start();
    expect(lan.running).toBe(true);
    expect(logger.warnings.join()).toContain('cannot listen for announcements');
  });

  it.each<[string, Partial<LanBrowserOptions>]>([
    ['port 0', { port: 0 }],
    ['a tiny interval', { intervalMs: 1 }],
    ['goneAfterMs shorter than the interval', { intervalMs: 1000, goneAfterMs: 500 }],
  ])('refuses %s', (_name, options) => {
    expect(() => createLanBrowser(options)).toThrow(RangeError);
  });
});
