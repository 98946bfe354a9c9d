import { createSocket } from 'node:dgram';
import { testBackend } from '../../support/testBackend';
import { discoveryPortFailure } from '../../../main/lan/discoveryPortFailure';
import { afterEach, describe, expect, it } from 'vitest';
import { type Backend } from '../../../main/createBackend';
import type { LanList } from '../../../shared/ipc/schemas/lan';
import { lanListSchema } from '../../../shared/ipc/schemas/lan';
import { waitFor } from '../../support/waitFor';
import { freeUdpPort, loopbackNetwork } from '../../support/loopbackNetwork';
import { resolveNetworkOptions } from '../../../main/base/networkOptions';
import { createLanBrowserService } from '../../../main/lan/lanBrowserService';
import { fakeLanBrowser } from './fakeLanBrowser';
import { loggerSpy } from '../ipc/loggerSpy';

// Two backends in one process stand in for two computers: they share a random discovery port and search
// 127.255.255.255 only.
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function backend(name: string, discoveryPort: number): Promise<{ backend: Backend; lists: LanList[] }> {
  const b = await testBackend(cleanups, { osUserName: name, network: loopbackNetwork(discoveryPort) });
  const lists: LanList[] = [];
  b.gateway.subscribe((event, payload) => {
    if (event === 'lan.servers') lists.push(lanListSchema.parse(payload));
  });
  return { backend: b, lists };
}

const ctx = { transport: 'websocket' } as const;

describe('LAN list service', () => {
  it('lists a room hosted by another backend, flags our own, and drops a closed one', async () => {
    const discoveryPort = await freeUdpPort();
    const a = await backend('ada', discoveryPort);
    const b = await backend('bob', discoveryPort);
    const hosted = await a.backend.gateway.dispatch('lobby.host', { capacity: 6, password: 'pw' }, ctx);
    expect(hosted.ok).toBe(true);
    const port = a.backend.lobby.view().port;

    const started = await b.backend.gateway.dispatch('lan.start', undefined, ctx);
    expect(started).toMatchObject({ ok: true, value: { running: true, error: null } });
    await waitFor(() => b.backend.lan.list().servers.length === 1, 3000, 'the room to be listed');
    expect(b.backend.lan.list().servers[0]).toMatchObject({
      name: "ada's room",
      host: '127.0.0.1',
      port,
      playerCount: 1, // the host's own seat
      capacity: 6,
      passwordProtected: true,
      compatibility: 'compatible',
      gameName: 'LAN Party Tag',
      own: false,
    });
    await waitFor(() => b.backend.lan.list().servers[0]?.pingMs != null, 3000, 'a ping from an answered search');
    expect(b.lists.at(-1)?.servers).toHaveLength(1);

    await a.backend.lan.start();
    await waitFor(() => a.backend.lan.list().servers.length === 1, 3000, 'our own room in our list');
    expect(a.backend.lan.list().servers[0]?.own).toBe(true);

    await a.backend.gateway.dispatch('lobby.leave', undefined, ctx);
    await waitFor(() => b.backend.lan.list().servers.length === 0, 4000, 'the closed room to go');
    expect(b.lists.at(-1)?.servers).toEqual([]);

    const stopped = await b.backend.gateway.dispatch('lan.stop', undefined, ctx);
    expect(stopped).toMatchObject({ ok: true, value: { running: false, servers: [], error: null, added: [] } });
  });

  it('refresh starts the search when it is not running, and reports a search that cannot start', async () => {
    const discoveryPort = await freeUdpPort();
    const b = await backend('bob', discoveryPort);
    const refreshed = await b.backend.gateway.dispatch('lan.refresh', undefined, ctx);
    expect(refreshed).toMatchObject({ ok: true, value: { running: true, servers: [] } });
    await b.backend.lan.stop();

    const broken = await testBackend(cleanups, {
      osUserName: 'cy',
      // Not an address of this machine: the search socket cannot bind (nothing is sent).
      network: loopbackNetwork(discoveryPort, { discoveryBindAddress: '192.0.2.1' }),
    });
    const result = await broken.gateway.dispatch('lan.start', undefined, ctx);
    expect(result).toMatchObject({ ok: true, value: { running: false } });
    expect(result.ok && (result.value as LanList).error).toMatch(/^Could not search the network: .*Network check/);
  });

  it('says the discovery port is busy, naming it and the fix, and does not claim to be searching', async () => {
    const discoveryPort = await freeUdpPort();
    // Another program holds the port without address reuse, as a foreign game server would (it sends nothing).
    const squatter = createSocket('udp4');
    await new Promise<void>((resolve) => squatter.bind(discoveryPort, '127.0.0.1', resolve));
    let squatting = true;
    const leave = async () => {
      if (!squatting) return;
      squatting = false;
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    };
    cleanups.push(leave);
    const b = await testBackend(cleanups, {
      osUserName: 'cy',
      network: loopbackNetwork(discoveryPort, { discoveryBindAddress: '127.0.0.1' }),
    });
    const result = await b.gateway.dispatch('lan.start', undefined, ctx);
    expect(result).toMatchObject({ ok: true, value: { running: false, servers: [] } });
    const message = result.ok ? (result.value as LanList).error : null;
    expect(message).toContain(`UDP port ${discoveryPort}`);
    expect(message).toMatch(/Close that program .* Try again, or join with a room code/);
    // Try again once the port is free: the search runs.
    await leave();
    expect(await b.gateway.dispatch('lan.refresh', undefined, ctx)).toMatchObject({
      ok: true,
      value: { running: true, error: null },
    });
  });

  it('explains other failures to take the port', () => {
    const fail = (code: string) => Object.assign(new Error(`bind ${code}`), { code });
    expect(discoveryPortFailure(9998, fail('EACCES'))).toMatch(/not allowed to use UDP port 9998 .*firewall/);
    const wrapped = new Error('cannot listen', { cause: fail('EADDRINUSE') });
    expect(discoveryPortFailure(9998, wrapped)).toMatch(/^UDP port 9998, which LAN Party uses to find rooms, is taken/);
    expect(discoveryPortFailure(9998, fail('EADDRNOTAVAIL'))).toBe(
      'Could not search the network: bind EADDRNOTAVAIL. Run the Network check to see why.',
    );
  });
});

describe('LAN list service listeners', () => {
  it('reports a throwing listener, still notifies the others, and notifies nobody after close', async () => {
    const logger = loggerSpy();
    const service = createLanBrowserService({
      network: resolveNetworkOptions(loopbackNetwork(await freeUdpPort())),
      logger,
      ownInstanceId: () => null,
      createBrowser: () => fakeLanBrowser(),
    });
    const lists: LanList[] = [];
    service.onChange(() => {
      throw new Error('window gone');
    });
    const off = service.onChange((list) => lists.push(list));
    await service.start();
    expect(lists).toMatchObject([{ running: true, servers: [], error: null, added: [] }]);
    expect(logger.warn).toHaveBeenCalledExactlyOnceWith('LAN list listener failed', new Error('window gone'));
    off();
    service.republish();
    expect(lists).toHaveLength(1);
    const late: LanList[] = [];
    service.onChange((list) => late.push(list));
    await service.close();
    service.republish();
    expect(late).toEqual([]);
  });
});
