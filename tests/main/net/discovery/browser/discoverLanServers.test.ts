import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverLanServers, type LanDiscoveryOptions, type SendFailure } from '../../../../../main/net/discovery';
import {
  LOOPBACK_BROADCAST,
  createRecordingLogger,
  failingSocket,
  freeUdpPort,
  openRawPeer,
  startTestResponder,
  waitFor,
} from '../loopbackHelpers';
import { ManualScheduler } from '../../../../support/manualScheduler';
import { hasPython, runPythonSearcher, startPythonServer, stopPythonServer } from '../pythonReference';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const server = (port: number, overrides: Partial<LanDiscoveryOptions> = {}) =>
  startTestResponder(port, cleanups, overrides);

/** A server that answers every query with fixed bytes, like a reference (or hostile) server would. */
async function scriptedServer(port: number, replies: Array<string | Uint8Array>) {
  const raw = await openRawPeer({ port, reuseAddr: true });
  raw.socket.on('message', (data, from) => {
    if (!data.toString('latin1').startsWith('GALEDISC1') || data.length < 100) return;
    for (const reply of replies) raw.socket.send(reply, from.port, from.address);
  });
  cleanups.push(() => raw.close());
  return raw;
}

const quiet = createRecordingLogger();
const search = (port: number, extra: Parameters<typeof discoverLanServers>[0] = {}) =>
  discoverLanServers({ port, timeoutMs: 800, targets: [LOOPBACK_BROADCAST], logger: quiet, ...extra });

describe('discoverLanServers on loopback', () => {
  it('spreads its rounds and ends its window by the injected clock', async () => {
    const port = await freeUdpPort();
    const responder = await server(port, { name: 'Clocked', instanceId: 'clocked' });
    const scheduler = new ManualScheduler(0);
    let done = false;
    const searching = search(port, { scheduler, timeoutMs: 1000, attempts: 2 }).finally(() => (done = true));
    // The first round goes at once; the second (at half the window) and the end of the window are armed.
    await waitFor(() => scheduler.pending === 2, 2000, 'the second round and the deadline to be armed');
    scheduler.advance(1);
    await waitFor(() => responder.stats().replies === 1, 2000, 'the first round answered');
    scheduler.advance(499);
    await waitFor(() => responder.stats().replies === 2, 2000, 'the second round answered');
    expect(done).toBe(false);
    scheduler.advance(500);
    expect((await searching).map((info) => info.name)).toEqual(['Clocked']);
  });

  it('lists several LAN Party servers and a reference server with their addresses', async () => {
    const port = await freeUdpPort();
    await server(port, {
      name: 'Alpha',
      gamePort: 7001,
      getPlayerCount: () => 3,
      instanceId: 'alpha',
      getExtraInfo: () => ({ capacity: 8, passwordProtected: false, gameName: 'Tanks' }),
    });
    await server(port, { name: 'Bravo', gamePort: 7002, getPlayerCount: () => 1, instanceId: 'bravo' });
    await server(port, { name: 'Charlie', gamePort: 7003, instanceId: 'charlie' });
    await scriptedServer(port, ['GALEDISC1{"name": "Py\\u00e9", "port": 9000, "player_count": 4}']);
    const found = await search(port);
    const byName = new Map(found.map((info) => [info.name, info]));
    expect([...byName.keys()].sort()).toEqual(['Alpha', 'Bravo', 'Charlie', 'Pyé']);
    expect(byName.get('Alpha')).toEqual({
      name: 'Alpha',
      address: { host: '127.0.0.1', port: 7001 },
      playerCount: 3,
      protocolVersion: 1,
      capacity: 8,
      passwordProtected: false,
      gameName: 'Tanks',
      instanceId: 'alpha',
    });
    expect(byName.get('Pyé')).toEqual({ name: 'Pyé', address: { host: '127.0.0.1', port: 9000 }, playerCount: 4 });
    expect(found).toHaveLength(4);
  });

  it('merges the duplicate replies of several targets and rounds', async () => {
    const port = await freeUdpPort();
    await server(port, { name: 'Solo', instanceId: 'solo' });
    const found = await search(port, { targets: [LOOPBACK_BROADCAST, '127.0.0.1', LOOPBACK_BROADCAST], attempts: 3 });
    expect(found.map((info) => info.name)).toEqual(['Solo']);
  });

  it('leaves out ignored instance ids (our own server)', async () => {
    const port = await freeUdpPort();
    await server(port, { name: 'Mine', instanceId: 'mine' });
    await server(port, { name: 'Theirs', instanceId: 'theirs' });
    const found = await search(port, { ignoreInstanceIds: ['mine'] });
    expect(found.map((info) => info.name)).toEqual(['Theirs']);
  });

  it('ignores malformed and oversized replies, and never takes an address from a reply', async () => {
    const port = await freeUdpPort();
    await scriptedServer(port, [
      'GALEDISC1{"name": "Broken"',
      `GALEDISC1{"name": "Huge", "port": 1, "player_count": 0, "pad": "${'x'.repeat(600)}"}`,
      'GALEDISC1{"name": "Bad port", "port": 0, "player_count": 0}',
      'garbage',
      new Uint8Array([0x47, 0x41, 0x4c, 0x45, 0x44, 0x49, 0x53, 0x43, 0x31, 0xc0]),
      'GALEDISC1{"name": "Redirect", "host": "203.0.113.9", "address": "203.0.113.9", "port": 5000, "player_count": 0}',
    ]);
    const found = await search(port);
    expect(found).toEqual([{ name: 'Redirect', address: { host: '127.0.0.1', port: 5000 }, playerCount: 0 }]);
  });

  it('drops replies from sources it does not trust', async () => {
    const port = await freeUdpPort();
    await server(port, { name: 'Loopback' });
    expect(await search(port, { isAllowedSource: () => false })).toEqual([]);
  });

  it('reports per-destination send errors without failing the search', async () => {
    const port = await freeUdpPort();
    await server(port, { name: 'Reachable' });
    const failures: SendFailure[] = [];
    const logger = createRecordingLogger();
    const found = await search(port, {
      targets: ['127.0.0.9', LOOPBACK_BROADCAST],
      platform: 'darwin',
      logger,
      onSendError: (failure) => failures.push(failure),
      // Sends to 127.0.0.9 fail the way macOS fails a denied Local Network access; nothing leaves loopback.
      openSocket: failingSocket('127.0.0.9', 'EHOSTUNREACH'),
    });
    expect(found.map((info) => info.name)).toEqual(['Reachable']);
    expect(failures.length).toBeGreaterThanOrEqual(1);
    expect(failures[0]).toMatchObject({ target: '127.0.0.9', port, code: 'EHOSTUNREACH', hint: 'macos-local-network' });
    expect(logger.warnings[0]).toContain('could not be sent');
  });

  it('returns an empty list when nobody answers, after the timeout', async () => {
    const port = await freeUdpPort();
    const started = Date.now();
    expect(await search(port, { timeoutMs: 100 })).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('refuses an invalid port or timeout', async () => {
    await expect(discoverLanServers({ port: 0, targets: [] })).rejects.toThrow(/discovery port/);
    await expect(discoverLanServers({ port: 5000, timeoutMs: Number.NaN, targets: [] })).rejects.toThrow(/timeoutMs/);
  });
});

describe.skipIf(!hasPython)('interoperability with reference-style Python peers', () => {
  it('finds a Python server that replies with json.dumps output', async () => {
    const port = await freeUdpPort();
    const child: ChildProcess = await startPythonServer(port, 'Snake 🐍', 9100, 2);
    cleanups.push(() => stopPythonServer(child));
    const found = await search(port, { timeoutMs: 500 });
    expect(found).toEqual([{ name: 'Snake 🐍', address: { host: '127.0.0.1', port: 9100 }, playerCount: 2 }]);
  });

  it('is listed by a Python searcher, with the live player count', async () => {
    const port = await freeUdpPort();
    let players = 6;
    await server(port, { name: 'Héllo', gamePort: 7300, getPlayerCount: () => players });
    expect(await runPythonSearcher(LOOPBACK_BROADCAST, port, 0.4)).toEqual([['Héllo', '127.0.0.1', 7300, 6]]);
    players = 7;
    expect(await runPythonSearcher(LOOPBACK_BROADCAST, port, 0.4)).toEqual([['Héllo', '127.0.0.1', 7300, 7]]);
  });
});
