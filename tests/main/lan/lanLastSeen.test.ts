import { describe, expect, it } from 'vitest';
import { resolveNetworkOptions } from '../../../main/base/networkOptions';
import { createLanBrowserService } from '../../../main/lan/lanBrowserService';
import { lanListOf } from '../../../main/lan/lanServerView';
import type { BrowsedServer, LanBrowserOptions } from '../../../main/net/discovery';
import { lanListSchema, type LanList } from '../../../shared/ipc/schemas/lan';
import { freeUdpPort, loopbackNetwork } from '../../support/loopbackNetwork';
import { ManualScheduler } from '../../support/manualScheduler';
import { loggerSpy } from '../ipc/loggerSpy';
import { fakeLanBrowser } from './fakeLanBrowser';

const EPOCH = 1_700_000_000_000;

const room = (lastSeenAt: number): BrowsedServer => ({
  name: 'Friday',
  address: { host: '127.0.0.1', port: 9000 },
  playerCount: 1,
  instanceId: 'abc',
  firstSeenAt: 0,
  lastSeenAt,
});

describe('LAN list last-seen time', () => {
  it('turns the browser’s monotonic time into wall-clock ms and passes the stale limit on', () => {
    const list = lanListOf({
      running: true,
      servers: [room(1_000), { ...room(4_200.4), instanceId: 'def' }],
      ownInstanceId: null,
      error: null,
      ports: { discovery: 9998, game: 9000 },
      added: [],
      // Now is 5 000 on the monotonic clock and EPOCH on the wall.
      wallTimeOf: (monotonicMs) => EPOCH - (5_000 - monotonicMs),
      staleAfterMs: 3_500,
    });
    expect(lanListSchema.parse(list)).toEqual(list);
    expect(list.servers.map((s) => s.lastSeenAt)).toEqual([EPOCH - 4_000, EPOCH - 800]);
    expect(list.staleAfterMs).toBe(3_500);
  });

  it('pushes the list when a server is heard again with nothing else changed, and not while it is silent', async () => {
    const scheduler = new ManualScheduler(10_000);
    let heardAt = 10_000;
    let browserScheduler: LanBrowserOptions['scheduler'];
    const browser = fakeLanBrowser(() => [room(heardAt)]);
    const service = createLanBrowserService({
      network: resolveNetworkOptions(loopbackNetwork(await freeUdpPort(), { browseIntervalMs: 2_000 })),
      logger: loggerSpy(),
      ownInstanceId: () => null,
      createBrowser: (options) => {
        browserScheduler = options.scheduler;
        return browser;
      },
      scheduler,
      // The wall clock read EPOCH when the monotonic one read 10 000.
      wallClock: () => EPOCH + scheduler.now() - 10_000,
    });
    const lists: LanList[] = [];
    service.onChange((list) => lists.push(list));
    const started = await service.start();
    // The browser runs on the service's clock, so their timestamps compare.
    expect(browserScheduler).toBe(scheduler);
    // A round, then the push lag (at most 1 s), then a 500 ms margin.
    expect(started.staleAfterMs).toBe(3_500);
    expect(started.servers[0]?.lastSeenAt).toBe(EPOCH);
    expect(lists).toHaveLength(1);

    // Silent for 3 s: no push, the renderer counts the age up on its own.
    scheduler.advance(3_000);
    expect(lists).toHaveLength(1);

    // Heard at 13 500, shown fields unchanged: one push within a second, with the new time.
    scheduler.advance(500);
    heardAt = scheduler.now();
    scheduler.advance(1_000);
    expect(lists).toHaveLength(2);
    expect(lists[1]?.servers[0]?.lastSeenAt).toBe(EPOCH + 3_500);
    scheduler.advance(5_000);
    expect(lists).toHaveLength(2);

    await service.stop();
    expect(scheduler.pending).toBe(0);
    await service.close();
  });
});
