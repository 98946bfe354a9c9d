import { testBackend } from '../../support/testBackend';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { netcheckHandlers, networkCheckOptionsFor } from '../../../main/netcheck/netcheckHandlers';
import { resolveNetworkOptions } from '../../../main/base/networkOptions';
import { accountForOpenRoom } from '../../../main/netcheck/openRoomPortNote';
import { networkCheckReportSchema, type NetworkCheckReport } from '../../../shared/netcheck/report';
import { freeUdpPort, loopbackNetwork } from '../../support/loopbackNetwork';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ctx = { transport: 'electron' } as const;

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
    expect(hosted).toMatchObject({ ok: true, value: { port: gamePort } });
    const result = await backend.gateway.dispatch('netcheck.run', undefined, ctx);
    const report = networkCheckReportSchema.parse(result.ok ? result.value : null);
    const game = report.ports.find((p) => p.role === 'game');
    expect(game).toMatchObject({ ok: true, code: null, boundPort: gamePort });
    expect(game?.message).toContain("in use by your open room “ada's room”");
    expect(report.advice[0]).toMatchObject({ id: 'open-room', severity: 'info' });
    // The loopback-only test machine has no LAN to search: that stays the one problem.
    expect(report.advice.filter((a) => a.severity === 'problem').map((a) => a.id)).toEqual(['no-lan']);
  });

  it('runs one check at a time and passes the backend’s network settings', async () => {
    const network = resolveNetworkOptions(loopbackNetwork(4321, { defaultGamePort: 0 }));
    let finish: (report: NetworkCheckReport) => void = () => {};
    const run = vi.fn(() => new Promise<NetworkCheckReport>((resolve) => (finish = resolve)));
    const handlers = netcheckHandlers({ network, platform: 'linux', openRoom: () => null, run });
    const first = handlers['netcheck.run'](undefined, ctx);
    const second = handlers['netcheck.run'](undefined, ctx);
    expect(run).toHaveBeenCalledTimes(1);
    expect(run).toHaveBeenCalledWith(networkCheckOptionsFor(network, 'linux'));
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
