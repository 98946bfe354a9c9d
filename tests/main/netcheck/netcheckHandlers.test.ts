import { testBackend } from '../../support/testBackend';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { netcheckHandlers, networkCheckOptionsFor } from '../../../main/netcheck/netcheckHandlers';
import { resolveNetworkOptions } from '../../../main/base/networkOptions';
import { accountForOpenRoom } from '../../../main/netcheck/openRoomPortNote';
import { networkCheckReportSchema, type NetworkCheckReport } from '../../../shared/netcheck/report';
import { freeUdpPort, loopbackNetwork } from '../../support/loopbackNetwork';
import { SYMMETRIC_NAT, UPNP_ROUTER } from '../../fixtures/natReport';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ctx = { transport: 'electron' } as const;
const facts = {
  appName: 'LAN Party',
  version: '1.2.3',
  platform: 'linux',
  logsDir: '/home/ada/.config/LAN Party/logs',
};

async function loopbackBackend(gamePort: number) {
  return testBackend(cleanups, { network: loopbackNetwork(await freeUdpPort(), { defaultGamePort: gamePort }) });
}

describe('netcheck.run', () => {
  it('runs the real check on loopback ports and returns a report that fits the contract', async () => {
    const backend = await loopbackBackend(0);
    const result = await backend.gateway.dispatch('netcheck.run', undefined, ctx);
    expect(result.ok).toBe(true);
    const report = networkCheckReportSchema.parse(result.ok ? result.value : null);
    expect(report.platform).toBe('linux');
    expect(report.ports.map((p) => [p.role, p.ok])).toEqual([
      ['discovery', true],
      ['game', true],
    ]);
    expect(report.selfDiscovery.status).toBe('heard');
    expect(report.selfDiscovery.targets).toEqual(['127.255.255.255', '127.0.0.1']);
  });

  it('says our open room holds the game port instead of calling it a problem', async () => {
    const gamePort = await freeUdpPort();
    const backend = await loopbackBackend(gamePort);
    const hosted = await backend.gateway.dispatch('lobby.host', {}, ctx);
    expect(hosted.ok).toBe(true);
    expect(backend.lobby.view().port).toBe(gamePort);
    const result = await backend.gateway.dispatch('netcheck.run', undefined, ctx);
    const report = networkCheckReportSchema.parse(result.ok ? result.value : null);
    const game = report.ports.find((p) => p.role === 'game');
    expect(game).toMatchObject({ ok: true, code: null, boundPort: gamePort });
    expect(game?.message).toContain("in use by your open room “ada's room”");
    expect(report.advice[0]).toMatchObject({ id: 'open-room', severity: 'info' });
    // The loopback-only test machine has no LAN to search: that stays the one problem.
    expect(report.advice.filter((a) => a.severity === 'problem').map((a) => a.id)).toEqual(['no-lan']);
  });

  it('checks, and names in its firewall tips, the port the open room uses when it is not the default one', async () => {
    const network = resolveNetworkOptions(loopbackNetwork(4321, { defaultGamePort: 9000 }));
    const run = vi.fn(async () => ({ ok: true, ports: [], advice: [] }) as unknown as NetworkCheckReport);
    const room = { port: 9123, roomName: 'Friday' };
    let open: typeof room | null = room;
    const handlers = netcheckHandlers({ network, platform: 'linux', openRoom: () => open, facts, run });
    await handlers['netcheck.run'](undefined, ctx);
    expect(run).toHaveBeenLastCalledWith(expect.objectContaining({ gamePort: 9123 }));
    open = null;
    await handlers['netcheck.run'](undefined, ctx);
    expect(run).toHaveBeenLastCalledWith(expect.objectContaining({ gamePort: 9000 }));
  });

  it('runs one check at a time and passes the backend’s network settings', async () => {
    const network = resolveNetworkOptions(loopbackNetwork(4321, { defaultGamePort: 0 }));
    let finish: (report: NetworkCheckReport) => void = () => {};
    const run = vi.fn(() => new Promise<NetworkCheckReport>((resolve) => (finish = resolve)));
    const stun = [{ host: '127.0.0.1', port: 3478 }];
    const stunServers = vi.fn(async () => stun);
    const handlers = netcheckHandlers({ network, platform: 'linux', openRoom: () => null, facts, run, stunServers });
    const first = handlers['netcheck.run'](undefined, ctx);
    const second = handlers['netcheck.run'](undefined, ctx);
    await vi.waitFor(() => expect(run).toHaveBeenCalled());
    expect(run).toHaveBeenCalledTimes(1);
    expect(stunServers).toHaveBeenCalledTimes(1);
    // No DHT node (the loopback options turn the DHT off): the check says it is off, and sends nothing to it.
    expect(run).toHaveBeenCalledWith({
      ...networkCheckOptionsFor(network, 'linux'),
      nat: { servers: stun },
      dht: { dht: undefined, scheduler: expect.anything() },
    });
    expect(networkCheckOptionsFor(network, 'linux')).toMatchObject({
      discoveryPort: 4321,
      gamePort: 0,
      bindAddress: '127.0.0.1',
      selfTest: { targets: ['127.255.255.255', '127.0.0.1'] },
    });
    const report = { ok: true } as NetworkCheckReport;
    finish(report);
    expect(await first).toBe(report);
    expect(await second).toBe(report);
  });
});

describe('netcheck.exportReport', () => {
  const network = resolveNetworkOptions(loopbackNetwork(4321, { defaultGamePort: 0 }));
  const report = {
    version: 1,
    platform: 'linux',
    checkedAt: '2026-01-02T21:05:09.000Z',
    interfaces: [],
    broadcastTargets: ['127.255.255.255'],
    ports: [],
    selfDiscovery: { status: 'heard', port: 4321, targets: [], sendFailures: [], message: 'Heard.' },
    receiveBuffer: { requestedBytes: 1, grantedBytes: 1, status: 'ok', message: 'Fine.' },
    nat: SYMMETRIC_NAT,
    router: UPNP_ROUTER,
    advice: [],
    ok: true,
  } satisfies NetworkCheckReport;
  const handlersWith = (extra: Partial<Parameters<typeof netcheckHandlers>[0]> = {}) =>
    netcheckHandlers({ network, platform: 'linux', openRoom: () => null, facts, run: async () => report, ...extra });
  const exported = (handlers: ReturnType<typeof handlersWith>, save: boolean) =>
    Promise.resolve(handlers['netcheck.exportReport']({ save }, ctx));

  it('asks for a check first when none has run', async () => {
    await expect(exported(handlersWith(), false)).rejects.toMatchObject({
      code: 'failed-precondition',
      message: 'Run the network check first, then export its report.',
    });
  });

  it('returns the last report as text with the version, platform and log folder', async () => {
    const handlers = handlersWith();
    await handlers['netcheck.run'](undefined, ctx);
    const result = await exported(handlers, false);
    expect(result.savedTo).toBeNull();
    expect(result.text).toContain('App:       LAN Party 1.2.3 on linux\n');
    expect(result.text).toContain('Log files: /home/ada/.config/LAN Party/logs\n');
    expect(result.text).toContain('Verdict: This computer is ready for LAN play.');
  });

  it('saves to the file the player picks, suggesting a dated name', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lan-party-export-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const chooseSavePath = vi.fn(async (name: string) => join(dir, name));
    const handlers = handlersWith({ chooseSavePath });
    await handlers['netcheck.run'](undefined, ctx);
    const result = await exported(handlers, true);
    expect(chooseSavePath).toHaveBeenCalledExactlyOnceWith('lan-party-network-check-2026-01-02-2105.txt');
    expect(result.savedTo).toBe(join(dir, 'lan-party-network-check-2026-01-02-2105.txt'));
    expect(await readFile(result.savedTo!, 'utf8')).toBe(result.text);
  });

  it('writes nothing when the player cancels the dialog', async () => {
    const writeText = vi.fn(async () => {});
    const handlers = handlersWith({ chooseSavePath: async () => null, writeText });
    await handlers['netcheck.run'](undefined, ctx);
    expect((await exported(handlers, true)).savedTo).toBeNull();
    expect(writeText).not.toHaveBeenCalled();
  });

  it('says why when the file cannot be written', async () => {
    const writeText = async () => {
      throw Object.assign(new Error('denied'), { code: 'EACCES' });
    };
    const handlers = handlersWith({ chooseSavePath: async () => '/read-only/report.txt', writeText });
    await handlers['netcheck.run'](undefined, ctx);
    await expect(exported(handlers, true)).rejects.toMatchObject({
      code: 'unavailable',
      message: 'Could not save the report to /read-only/report.txt (EACCES).',
    });
  });

  it('refuses to save without a dialog (the browser dev mode), so the page offers copy instead', async () => {
    const handlers = handlersWith();
    await handlers['netcheck.run'](undefined, ctx);
    await expect(exported(handlers, true)).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('goes through the gateway of a real backend: run, then export (contract-checked)', async () => {
    const backend = await testBackend(cleanups, {
      network: loopbackNetwork(await freeUdpPort(), { defaultGamePort: 0 }),
      logsDir: '/var/log/lan-party',
    });
    await backend.gateway.dispatch('netcheck.run', undefined, ctx);
    const result = await backend.gateway.dispatch('netcheck.exportReport', { save: false }, ctx);
    expect(result).toMatchObject({ ok: true, value: { savedTo: null } });
    const text = result.ok ? (result.value as { text: string }).text : '';
    expect(text).toMatch(/^LAN Party network check\nApp: {7}LAN Party 1\.0\.0 on linux\n/);
    expect(text).toContain('Log files: /var/log/lan-party\n');
    expect(await backend.gateway.dispatch('netcheck.exportReport', { save: 'yes' }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'invalid-argument' },
    });
  });
});

describe('accountForOpenRoom', () => {
  const base: NetworkCheckReport = {
    version: 1,
    platform: 'linux',
    checkedAt: '2024-01-01T00:00:00.000Z',
    interfaces: [],
    broadcastTargets: [],
    ports: [
      { role: 'discovery', port: 9998, bindAddress: '0.0.0.0', ok: true, boundPort: 9998, code: null, message: 'ok' },
      {
        role: 'game',
        port: 9000,
        bindAddress: '0.0.0.0',
        ok: false,
        boundPort: null,
        code: 'EADDRINUSE',
        message: 'x',
      },
    ],
    selfDiscovery: { status: 'heard', port: 9998, targets: [], sendFailures: [], message: 'ok' },
    receiveBuffer: { requestedBytes: 1, grantedBytes: 1, status: 'ok', message: 'ok' },
    nat: SYMMETRIC_NAT,
    router: UPNP_ROUTER,
    advice: [{ id: 'port-game', severity: 'problem', title: 't', detail: 'd', commands: [] }],
    ok: false,
  };

  it('leaves the report alone without a room, or when another program holds the port', () => {
    expect(accountForOpenRoom(base, null)).toBe(base);
    expect(accountForOpenRoom(base, { port: 9001, roomName: 'R' })).toBe(base);
  });

  it('keeps other problems when it clears the game port', () => {
    const withOther = {
      ...base,
      advice: [...base.advice, { id: 'no-lan', severity: 'problem' as const, title: 't', detail: 'd', commands: [] }],
    };
    const out = accountForOpenRoom(withOther, { port: 9000, roomName: 'R' });
    expect(out.advice.map((a) => a.id)).toEqual(['open-room', 'no-lan']);
    expect(out.ok).toBe(false);
  });
});
