import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testBackend } from '../../support/testBackend';
import { freeUdpPort } from '../../support/loopbackNetwork';
import { waitFor } from '../../support/waitFor';
import { startTestResponder } from '../net/discovery/loopbackHelpers';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ctx = { transport: 'websocket' } as const;

describe('LAN list: servers added by address', () => {
  it('asks an added server by unicast, lists it marked, remembers it, and reports a silent one', async () => {
    // The responder is on 127.0.0.2 on a port the backend's own search never goes to.
    const serverPort = await freeUdpPort();
    const silentPort = await freeUdpPort();
    await startTestResponder(serverPort, cleanups as Array<() => Promise<void>>, {
      name: 'Tailnet room',
      gamePort: 7200,
      instanceId: 'tailnet',
      bindAddress: '127.0.0.2',
      getPlayerCount: () => 1,
      getExtraInfo: () => ({ capacity: 4, hostName: 'Bob', inRound: false }),
    });
    const backend = await testBackend(cleanups);
    const dir = backend.settings.filePath;
    await backend.gateway.dispatch('lan.start', undefined, ctx);

    const added = await backend.gateway.dispatch('lan.addServer', { host: '127.0.0.2', port: serverPort }, ctx);
    expect(added).toMatchObject({ ok: true, value: { added: [{ host: '127.0.0.2', port: serverPort }] } });
    await waitFor(() => backend.lan.list().servers.length === 1, 3000, 'the added server to be listed');
    expect(backend.lan.list().servers[0]).toMatchObject({
      name: 'Tailnet room',
      host: '127.0.0.2',
      port: 7200,
      hostName: 'Bob',
      state: 'lobby',
      addedByAddress: true,
    });
    await waitFor(() => backend.lan.list().servers[0]?.pingMs != null, 3000, 'its ping');
    expect(backend.lan.list().added[0]).toMatchObject({ status: 'answered', serverId: 'id:tailnet' });

    // Adding the same server twice keeps one; a silent one says so after a round, and nothing crashes.
    await backend.gateway.dispatch('lan.addServer', { host: '127.0.0.2', port: serverPort }, ctx);
    await backend.gateway.dispatch('lan.addServer', { host: '127.0.0.3', port: silentPort }, ctx);
    await waitFor(() => backend.lan.list().added[1]?.status === 'no-answer', 3000, 'the silent server');
    expect(backend.lan.list().added.map((entry) => entry.host)).toEqual(['127.0.0.2', '127.0.0.3']);
    expect(backend.lan.list().servers).toHaveLength(1);

    const saved = JSON.parse(await readFile(dir, 'utf8')) as { lanServers: unknown };
    expect(saved.lanServers).toEqual([
      { host: '127.0.0.2', port: serverPort },
      { host: '127.0.0.3', port: silentPort },
    ]);
    const removed = await backend.gateway.dispatch('lan.removeServer', { host: '127.0.0.3', port: silentPort }, ctx);
    expect(removed).toMatchObject({ ok: true, value: { added: [{ host: '127.0.0.2' }] } });
    expect((JSON.parse(await readFile(dir, 'utf8')) as { lanServers: unknown }).lanServers).toEqual([
      { host: '127.0.0.2', port: serverPort },
    ]);
  });

  it('refuses bad addresses with a clear error and keeps the list as it was', async () => {
    const backend = await testBackend(cleanups, {
      lookup: async (name) => {
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
      },
    });
    const spaced = await backend.gateway.dispatch('lan.addServer', { host: 'bad host', port: 9998 }, ctx);
    expect(spaced).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    const port = await backend.gateway.dispatch('lan.addServer', { host: '10.0.0.1', port: 70000 }, ctx);
    expect(port).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    const unknown = await backend.gateway.dispatch('lan.addServer', { host: 'nowhere', port: 9998 }, ctx);
    expect(unknown).toMatchObject({
      ok: false,
      error: { code: 'not-found', message: expect.stringMatching(/nowhere/) },
    });
    expect(backend.lan.list().added).toEqual([]);
  });

  it('loads the remembered servers on start, dropping a damaged entry', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lan-party-added-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const file = { version: 1, playerName: 'Ada', playerColor: '#3ddc97', onboarded: true, notifications: true };
    const lanServers = [
      { host: '127.0.0.4', port: 4444 },
      { host: 'no spaces allowed', port: 1 },
    ];
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ ...file, lanServers }));
    const backend = await testBackend(cleanups, { userDataDir: dir });
    const started = await backend.gateway.dispatch('lan.start', undefined, ctx);
    expect(started).toMatchObject({ ok: true, value: { added: [{ host: '127.0.0.4', port: 4444 }] } });
    expect(backend.lan.list().added).toHaveLength(1);
    expect((await backend.settings.get()).playerName).toBe('Ada');
  });
});
