import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBackend } from '../../main/createBackend';
import { DEFAULT_NETWORK_OPTIONS } from '../../main/base/networkOptions';
import { freeUdpPort, loopbackNetwork } from '../support/loopbackNetwork';
import { loggerSpy } from './ipc/loggerSpy';
import { portMapFailureText } from '../../main/reach/internet/direct/portMapFailureText';
import type { MapPort } from '../../main/reach/portmap/portMapping';

let dir: string;
let discoveryPort: number;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lan-party-backend-'));
  discoveryPort = await freeUdpPort();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A backend on loopback with port mapping off; `defaults` builds one on the app's defaults (it is never started). */
function backend(defaults = false) {
  return createBackend({
    app: { name: 'LAN Party', version: '1.0.0', platform: 'linux' },
    userDataDir: dir,
    osUserName: 'ada',
    validateOutputs: true,
    logger: loggerSpy(),
    // Loopback only, router port mapping off: nothing here may reach a real network.
    ...(defaults ? {} : { network: loopbackNetwork(discoveryPort) }),
  });
}

const electron = { transport: 'electron' } as const;

describe('backend composition', () => {
  it('answers app.getInfo with the host facts and the caller transport', async () => {
    const b = backend();
    expect(await b.gateway.dispatch('app.getInfo', undefined, electron)).toEqual({
      ok: true,
      value: { name: 'LAN Party', version: '1.0.0', platform: 'linux', transport: 'electron', portMapping: false },
    });
    expect(await b.gateway.dispatch('app.getInfo', undefined, { transport: 'websocket' })).toMatchObject({
      value: { transport: 'websocket' },
    });
  });

  it('serves settings and emits settings.changed after an update', async () => {
    const b = backend();
    const sink = vi.fn();
    b.gateway.subscribe(sink);
    expect(await b.gateway.dispatch('settings.get', undefined, electron)).toMatchObject({
      value: { playerName: 'ada' },
    });
    const updated = await b.gateway.dispatch(
      'settings.update',
      { playerName: '  Nova ', playerColor: '#A77DFF' },
      electron,
    );
    const expected = {
      playerName: 'Nova',
      playerColor: '#a77dff',
      onboarded: false,
      notifications: true,
      theme: 'system',
    };
    expect(updated).toEqual({ ok: true, value: expected });
    expect(sink).toHaveBeenCalledExactlyOnceWith('settings.changed', expected);
  });

  it('rejects invalid updates with invalid-argument and leaves settings alone', async () => {
    const b = backend();
    for (const bad of [{ playerName: '' }, { playerColor: '#000000' }, { nickname: 'x' }, 'Nova', null]) {
      expect(await b.gateway.dispatch('settings.update', bad, electron)).toMatchObject({
        ok: false,
        error: { code: 'invalid-argument' },
      });
    }
    expect(await b.settings.get()).toMatchObject({ playerName: 'ada' });
  });

  it('emits lobby.changed as a room opens and closes, and close ends the room', async () => {
    const b = createBackend({
      app: { name: 'LAN Party', version: '1.0.0', platform: 'linux' },
      userDataDir: dir,
      osUserName: 'ada',
      validateOutputs: true,
      logger: loggerSpy(),
      network: loopbackNetwork(await freeUdpPort()),
    });
    const sink = vi.fn();
    b.gateway.subscribe(sink);
    const hosted = await b.gateway.dispatch('lobby.host', { roomName: 'Friday' }, electron);
    // A command answers nothing: its view comes once, as lobby.changed.
    expect(hosted).toEqual({ ok: true, value: undefined });
    expect(b.lobby.view()).toMatchObject({ status: 'in-room', state: { roomName: 'Friday' } });
    const statuses = () => sink.mock.calls.filter(([name]) => name === 'lobby.changed').map(([, view]) => view.status);
    // Views are forwarded at most once a frame: the first at once, the latest at the end of the frame.
    await vi.waitFor(() => expect(statuses()).toEqual(['hosting', 'in-room']));
    expect(b.network).toMatchObject({ bindAddress: '127.0.0.1', broadcastTargets: ['127.255.255.255'] });
    expect(b.lobby.session()?.role).toBe('host');
    await b.close();
    expect(b.lobby.view().status).toBe('idle');
    expect(b.lobby.session()).toBeNull();
  });

  it('says whether it maps ports, and an internet room the router will not open answers why in one sentence', async () => {
    const failure = { kind: 'cgnat', externalAddress: '100.64.1.2' } as const;
    const mapPort = vi.fn<MapPort>(async () => ({ ok: false, failure }));
    const b = createBackend({
      app: { name: 'LAN Party', version: '1.0.0', platform: 'linux' },
      userDataDir: dir,
      osUserName: 'ada',
      validateOutputs: true,
      logger: loggerSpy(),
      network: loopbackNetwork(await freeUdpPort()),
      mapPort,
    });
    expect(await b.gateway.dispatch('app.getInfo', undefined, electron)).toMatchObject({
      value: { portMapping: true },
    });
    // No rendezvous in the settings: the router was the only door, and the form shows the reach's sentence.
    expect(await b.gateway.dispatch('lobby.host', { reach: 'internet' }, electron)).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'failed-precondition', message: portMapFailureText(failure) }),
    });
    expect(mapPort).toHaveBeenCalledTimes(1);
    expect(b.lobby.view().status).toBe('idle');
    await b.close();
  });

  it('uses the real app’s network defaults unless told otherwise', async () => {
    // Only composed, never asked to host, search or map a port: nothing is sent.
    const b = backend(true);
    expect(b.network).toEqual(DEFAULT_NETWORK_OPTIONS);
    // The app's DHT is the public one, and its node is made only when a room or a join first needs it.
    expect(b.dht).toBeDefined();
    expect(b.dht?.natView()).toBeUndefined();
    await b.close();
  });

  it('asks no router and starts no DHT node with the loopback options (every test backend): an internet room then needs a rendezvous', async () => {
    const b = createBackend({
      app: { name: 'LAN Party', version: '1.0.0', platform: 'linux' },
      userDataDir: dir,
      osUserName: 'ada',
      validateOutputs: true,
      logger: loggerSpy(),
      network: loopbackNetwork(await freeUdpPort()),
    });
    expect(b.network.routerGateways).toEqual([]);
    // dhtBootstrap [] too: no DHT node at all, so nothing can reach the public bootstrap nodes.
    expect(b.network.dhtBootstrap).toEqual([]);
    expect(b.dht).toBeUndefined();
    const hosted = await b.gateway.dispatch('lobby.host', { roomName: 'Far', reach: 'internet' }, electron);
    // With a mapper, no router would read "Your router did not answer…"; without one the room asks for a rendezvous.
    expect(hosted).toMatchObject({ ok: false, error: { message: expect.stringMatching(/need a rendezvous server/) } });
    await b.close();
  });

  it('stops forwarding settings events after close', async () => {
    const b = backend();
    const sink = vi.fn();
    b.gateway.subscribe(sink);
    await b.close();
    await b.settings.update({ playerName: 'Later' });
    expect(sink).not.toHaveBeenCalled();
  });
});
