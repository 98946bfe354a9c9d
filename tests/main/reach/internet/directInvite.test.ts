import { afterEach, describe, expect, it } from 'vitest';
import type { Backend } from '../../../../main/createBackend';
import type { MapPort, PortMapFailure } from '../../../../main/reach/portmap/portMapping';
import { portMapFailureText } from '../../../../main/reach/internet/direct/portMapFailureText';
import { IpcError, IpcErrorCode } from '../../../../shared/ipc/errors';
import { PlayerPath } from '../../../../shared/lobby/lobbyState';
import { encodeDirectCode, RENDEZVOUS_ERROR_TEXT, readInternetCode } from '../../../../shared/rendezvous';
import { createRouterPortMapper } from '../../../../main/reach/portmap/routerPortMapper';
import { startFakeRouter } from '../../../support/fakeRouter';
import { loopbackInterfaces } from '../../../support/loopbackNetwork';
import { startStunTestServer, stunSuccess } from '../../../support/stunTestServer';
import { ManualScheduler } from '../../../support/manualScheduler';
import { testBackend } from '../../../support/testBackend';
import { waitFor } from '../../../support/waitFor';
import { LOOPBACK_ROOM, loopbackRendezvous, loopbackRendezvousUrl, type Cleanups } from './loopbackInternetRoom';
import { startDedicatedHost } from '../../../../main/cli/dedicatedHost';

// The direct invite through the real backends on loopback: a fake router maps the direct socket's own port on
// 127.0.0.1 (the "public" address), a guest joins by the NET-D… code, and the failures say what to do.
const cleanups: Cleanups = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A router that maps any port to itself on 127.0.0.1, and counts the mappings it still holds. */
function loopbackRouter() {
  const held = new Set<number>();
  const mapPort: MapPort = ({ internalPort }) => {
    held.add(internalPort);
    return Promise.resolve({
      ok: true,
      mapping: {
        protocol: 'nat-pmp',
        externalAddress: '127.0.0.1',
        externalPort: internalPort,
        internalPort,
        onMoved: () => () => undefined,
        close: () => {
          held.delete(internalPort);
          return Promise.resolve();
        },
      },
    });
  };
  return { mapPort, held };
}

/** A router that answers with `failure`. */
const failingRouter =
  (failure: PortMapFailure): MapPort =>
  () =>
    Promise.resolve({ ok: false, failure });

/**
 * The real port mapper against a fake router on its own loopback address that reports 203.0.113.1, and a STUN
 * server that sees this machine at 198.51.100.7: a second NAT sits beyond the router.
 */
async function routerBehindSecondNat(cleanups: Cleanups) {
  const router = await startFakeRouter({
    address: '127.77.3.1',
    protocols: ['nat-pmp'],
    externalAddress: '203.0.113.1',
  });
  cleanups.push(() => router.close());
  const stun = await startStunTestServer((from, tx) => stunSuccess(tx, '198.51.100.7', from.port));
  cleanups.push(() => stun.close());
  const mapPort = createRouterPortMapper({
    gateways: [router.address],
    ssdpTargets: [],
    ports: router.ports,
    networkInterfaces: loopbackInterfaces,
    probeTimeoutMs: 1500,
    requestTimeoutMs: 1500,
  });
  return { router, stun, mapPort };
}

/**
 * The real port mapper (renewals on a manual clock) against a fake router on its own loopback address whose public
 * address is 127.0.0.1: it first assigns a port nothing listens on, and once `reboot()` made it forget its mappings
 * the renewal gets the direct socket's own port, so only the moved code reaches the room.
 */
async function movingRouter(cleanups: Cleanups, address: string) {
  let shift = 1000;
  const router = await startFakeRouter({
    address,
    protocols: ['nat-pmp'],
    externalAddress: '127.0.0.1',
    grantSeconds: 120,
    assignPort: (port) => port + shift,
  });
  cleanups.push(() => router.close());
  const scheduler = new ManualScheduler();
  const mapPort = createRouterPortMapper({
    gateways: [router.address],
    ssdpTargets: [],
    protocols: ['nat-pmp'],
    ports: router.ports,
    networkInterfaces: loopbackInterfaces,
    scheduler,
  });
  const renewMoved = () => {
    router.mappings.clear();
    shift = 0;
    // Half the 120 s lease: the renewal.
    scheduler.advance(60_000);
  };
  return { router, mapPort, renewMoved };
}

const directPort = (code: string) => {
  const read = readInternetCode(code);
  if (!read.ok || read.invite.kind !== 'direct') throw new Error(`not a direct code: ${code}`);
  return read.invite.code.port;
};

const hostError = (backend: Backend) =>
  backend.lobby.host({ roomName: 'Far away', reach: 'internet' }).then(
    () => undefined,
    (error: unknown) => error,
  );

describe('the direct invite', () => {
  it('opens an internet room through the router with no rendezvous; a guest joins by its code and chats', async () => {
    const router = loopbackRouter();
    const host = await testBackend(cleanups, { mapPort: router.mapPort });
    await host.lobby.host({ roomName: 'Across town', reach: 'internet' });
    const internet = host.lobby.view().internet;
    // The host's view shows the direct code: the router's address and port, and the secret.
    expect(internet).toMatchObject({ code: expect.stringMatching(/^NET-D/), status: 'registered' });
    const read = readInternetCode(internet!.code);
    expect(read.ok && read.invite.kind === 'direct' && read.invite.code.address).toBe('127.0.0.1');
    expect(router.held.size).toBe(1);

    const guest = await testBackend(cleanups);
    await guest.lobby.joinByCode({ code: internet!.code.toLowerCase() });
    expect(guest.lobby.view()).toMatchObject({ status: 'in-room', internet: { code: internet!.code } });
    await waitFor(() => (host.lobby.view().state?.players.length ?? 0) === 2, 5000, 'the guest in the room');
    expect(host.lobby.view().state!.players[1]!.path).toBe(PlayerPath.ROUTER);
    guest.lobby.chat('hello through the router');
    await waitFor(() => host.lobby.view().state?.chat.length === 1, 5000, 'the guest’s line at the host');
    host.lobby.chat('welcome');
    await waitFor(() => guest.lobby.view().state?.chat.length === 2, 5000, 'both chat lines at the guest');
    expect(host.lobby.view().state!.chat.map((line) => line.text)).toEqual(['hello through the router', 'welcome']);

    await guest.lobby.leave();
    await waitFor(() => host.lobby.view().state?.players.length === 1, 5000, 'the guest gone');
    await host.lobby.leave();
    // The mapping goes with the room.
    expect(router.held.size).toBe(0);
  });

  it('says "someone may be between you and the host" for a code with the wrong secret', async () => {
    const host = await testBackend(cleanups, { mapPort: loopbackRouter().mapPort });
    await host.lobby.host({ reach: 'internet' });
    const read = readInternetCode(host.lobby.view().internet!.code);
    if (!read.ok || read.invite.kind !== 'direct') throw new Error('no direct code');
    const { address, port, secret } = read.invite.code;
    const wrong = encodeDirectCode(
      address,
      port,
      secret.startsWith('0') ? `1${secret.slice(1)}` : `0${secret.slice(1)}`,
    );
    const guest = await testBackend(cleanups);
    const failure = await guest.lobby.joinByCode({ code: wrong }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(IpcError);
    expect(failure).toMatchObject({
      code: IpcErrorCode.PERMISSION_DENIED,
      message: RENDEZVOUS_ERROR_TEXT['key-mismatch'],
    });
    expect((failure as IpcError).message).toMatch(/someone may be between you and the host/);
    expect(host.lobby.view().state!.players).toHaveLength(1);
  });

  it('says each failure kind in one sentence with what to do when there is no rendezvous', async () => {
    const failures: PortMapFailure[] = [
      { kind: 'no-router' },
      { kind: 'refused', protocol: 'upnp', detail: '718 ConflictInMappingEntry' },
      { kind: 'private-external', externalAddress: '192.168.1.2' },
      { kind: 'cgnat', externalAddress: '100.72.1.9' },
      { kind: 'double-nat', externalAddress: '198.51.100.7', stunAddress: '203.0.113.9' },
    ];
    for (const failure of failures) {
      const text = portMapFailureText(failure);
      expect(text.split(/[.!?](\s|$)/).filter((part) => part.trim() !== '')).toHaveLength(1);
      expect(text).toMatch(/rendezvous/);
      expect(text).toMatch(/VPN/);
      if (failure.kind !== 'cgnat') expect(text).toMatch(/router/);
      const host = await testBackend(cleanups, { mapPort: failingRouter(failure) });
      const error = await hostError(host);
      expect(error).toMatchObject({ code: IpcErrorCode.FAILED_PRECONDITION, message: text });
      expect((error as Error).message).not.toMatch(/Internet rooms are off/);
      expect(host.lobby.view().status).toBe('idle');
    }
  });

  it('says a second NAT when the configured TURN server sees another address than the router reports', async () => {
    const { router, stun, mapPort } = await routerBehindSecondNat(cleanups);
    const host = await testBackend(cleanups, { mapPort });
    const turn = { mode: 'static' as const, server: `127.0.0.1:${stun.port}`, username: 'u', password: 'p' };
    await host.settings.update({ internet: { rendezvousUrl: null, turn } });
    const error = await hostError(host);
    const failure = { kind: 'double-nat', externalAddress: '203.0.113.1', stunAddress: '198.51.100.7' } as const;
    expect(error).toMatchObject({ code: IpcErrorCode.FAILED_PRECONDITION, message: portMapFailureText(failure) });
    expect(stun.requests).toBeGreaterThan(0);
    // The mapping that would not help is taken back.
    expect(router.mappings.size).toBe(0);
    expect(host.lobby.view().status).toBe('idle');
  });

  it("the headless host checks against the rendezvous' relay and falls back to the rendezvous behind a second NAT", async () => {
    const { router, stun, mapPort } = await routerBehindSecondNat(cleanups);
    const rendezvous = await loopbackRendezvous(cleanups, 0, [`turn:127.0.0.1:${stun.port}`]);
    const lines: string[] = [];
    const dedicated = await startDedicatedHost(
      { ...LOOPBACK_ROOM, internet: { rendezvousUrl: loopbackRendezvousUrl(rendezvous.server.port) } },
      { log: (line) => lines.push(line), iceHostAddresses: ['127.0.0.1'], mapPort },
    );
    cleanups.push(() => dedicated.close());
    expect(stun.requests).toBeGreaterThan(0);
    expect(router.mappings.size).toBe(0);
    expect(lines.join('\n')).toMatch(/no router mapping \(double-nat\)/);
    expect(dedicated.banner.join('\n')).toMatch(/registered with the rendezvous/);
  });

  it("follows a renewal that moves the router's port: the lobby's code changes and a guest joins by the new one", async () => {
    const { router, mapPort, renewMoved } = await movingRouter(cleanups, '127.77.3.2');
    const host = await testBackend(cleanups, { mapPort });
    await host.lobby.host({ roomName: 'Moving', reach: 'internet' });
    const first = host.lobby.view().internet!.code;
    const [mapped] = [...router.mappings.values()];
    expect(directPort(first)).toBe(mapped!.internalPort + 1000);
    renewMoved();
    await waitFor(() => host.lobby.view().internet?.code !== first, 5000, 'the code following the mapping');
    const moved = host.lobby.view().internet!.code;
    expect(directPort(moved)).toBe(mapped!.internalPort);
    expect(host.lobby.view().internet!.status).toBe('registered');
    const guest = await testBackend(cleanups);
    await guest.lobby.joinByCode({ code: moved });
    await waitFor(() => (host.lobby.view().state?.players.length ?? 0) === 2, 5000, 'the guest in by the new code');
  });

  it('the headless host prints the new code when a renewal moves the port', async () => {
    const { mapPort, renewMoved } = await movingRouter(cleanups, '127.77.3.3');
    const lines: string[] = [];
    const dedicated = await startDedicatedHost(
      { ...LOOPBACK_ROOM, internet: { rendezvousUrl: undefined } },
      { log: (line) => lines.push(line), mapPort },
    );
    cleanups.push(() => dedicated.close());
    const codes = () => lines.join('\n').match(/NET-D[0-9A-Z-]+/g) ?? [];
    const first = /NET-D[0-9A-Z-]+/.exec(dedicated.banner.join('\n'))![0];
    renewMoved();
    await waitFor(() => codes().some((code) => code !== first), 5000, 'the new code in the log');
    const moved = codes().find((code) => code !== first)!;
    expect(directPort(moved)).toBe(directPort(first) - 1000);
    expect(lines.join('\n')).toContain(
      `Internet code: ${moved} (direct: your router forwards 127.0.0.1:${directPort(moved)})`,
    );
  });

  it('falls back to the rendezvous when the router maps nothing and one is set', async () => {
    const rendezvous = await loopbackRendezvous(cleanups);
    const url = loopbackRendezvousUrl(rendezvous.server.port);
    const host = await testBackend(cleanups, {
      mapPort: failingRouter({ kind: 'cgnat', externalAddress: '100.64.0.1' }),
      network: { iceHostAddresses: ['127.0.0.1'] },
    });
    await host.settings.update({ internet: { rendezvousUrl: url, turn: { mode: 'shared-secret' } } });
    await host.lobby.host({ reach: 'internet' });
    const code = host.lobby.view().internet!.code;
    expect(readInternetCode(code)).toMatchObject({ ok: true, invite: { kind: 'rendezvous' } });
  });

  it('keeps the old word without a router client or a rendezvous: internet rooms need one', async () => {
    const host = await testBackend(cleanups);
    const error = await hostError(host);
    expect(error).toMatchObject({
      code: IpcErrorCode.FAILED_PRECONDITION,
      message: expect.stringMatching(/rendezvous/),
    });
  });
});
