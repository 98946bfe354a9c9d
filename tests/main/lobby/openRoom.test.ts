import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../main/base/logger';
import { resolveNetworkOptions } from '../../../main/base/networkOptions';
import { openRoom, type OpenRoomRequest } from '../../../main/lobby/openRoom';
import { createLanReach } from '../../../main/reach/lan/index';
import type { NetworkOptions } from '../../../main/base/networkOptions';
import type { LobbyHost, LobbyHostOptions } from '../../../main/lobby/host/lobbyHost';
import { BindError } from '../../../main/net/errors';

// The port and discovery decisions, with LobbyHost.start swapped for a stand-in (no sockets).
const base = {
  roomName: 'Friday',
  gameId: 'tag',
  playerName: 'Ada',
  colour: '#3ddc97',
  capacity: 8,
  password: undefined,
  port: undefined,
};
/** The request as the lobby makes it: what the LAN reach opens for a room on `network`. */
async function roomOn(network: NetworkOptions = resolveNetworkOptions()): Promise<OpenRoomRequest> {
  return { ...base, opening: await createLanReach({ network, platform: 'linux', logger: silentLogger }).open({}) };
}
const fakeHost = {} as LobbyHost;
const busy = (port: number) => new BindError(port, '0.0.0.0', 'EADDRINUSE', 'in use');

function deps(start: (options: LobbyHostOptions) => Promise<LobbyHost>, network = resolveNetworkOptions()) {
  return { network, platform: 'linux', logger: silentLogger, start: vi.fn(start) };
}

describe('openRoom', () => {
  it('uses the real defaults: port 9000, wildcard bind, discovery on 9998 announcing every 3 s', async () => {
    const d = deps(async () => fakeHost);
    const opened = await openRoom(await roomOn(), d);
    expect(opened).toMatchObject({ host: fakeHost, discoverable: true });
    expect(opened.instanceId).toMatch(/^[0-9a-f]{16}$/);
    const options = d.start.mock.calls[0]![0];
    expect(options).toMatchObject({
      port: 9000,
      bindAddress: '0.0.0.0',
      roomName: 'Friday',
      gameId: 'tag',
      capacity: 8,
    });
    expect(options.discovery).toMatchObject({
      port: 9998,
      bindAddress: '0.0.0.0',
      instanceId: opened.instanceId,
      announce: { intervalMs: 3000 },
    });
    expect(options.discovery && 'targets' in options.discovery.announce!).toBe(false);
    // Discovery reports to the app's own logger: one Logger interface, no adapter in between.
    expect(options.discovery && options.discovery.logger).toBe(d.logger);
    expect('advertiseAddress' in options).toBe(false);
    expect('password' in options).toBe(false);
  });

  it('passes injected loopback parameters through', async () => {
    const network = resolveNetworkOptions({
      bindAddress: '127.0.0.1',
      advertiseAddress: '127.0.0.1',
      broadcastTargets: ['127.255.255.255'],
      discoveryPort: 45000,
    });
    const d = deps(async () => fakeHost, network);
    await openRoom({ ...(await roomOn(network)), password: 'pw' }, d);
    expect(d.start.mock.calls[0]![0]).toMatchObject({
      bindAddress: '127.0.0.1',
      advertiseAddress: '127.0.0.1',
      password: 'pw',
      discovery: { port: 45000, announce: { targets: ['127.255.255.255'] } },
    });
  });

  it('falls back to a free port when the default is busy, but not when the player chose it', async () => {
    const d = deps(async (options) => {
      if (options.port === 9000) throw busy(9000);
      return fakeHost;
    });
    await openRoom(await roomOn(), d);
    expect(d.start.mock.calls.map(([options]) => options.port)).toEqual([9000, 0]);
    const chosen = deps(async () => Promise.reject(busy(9100)));
    await expect(openRoom({ ...(await roomOn()), port: 9100 }, chosen)).rejects.toMatchObject({
      code: 'failed-precondition',
      message: expect.stringContaining('UDP port 9100 is already in use'),
    });
    expect(chosen.start).toHaveBeenCalledOnce();
  });

  it('opens without discovery when only discovery fails', async () => {
    const d = deps(async (options) => {
      if (options.discovery !== false) throw new Error('cannot listen for LAN discovery on 0.0.0.0:9998');
      return fakeHost;
    });
    expect(await openRoom(await roomOn(), d)).toEqual({ host: fakeHost, instanceId: null, discoverable: false });
  });
});
