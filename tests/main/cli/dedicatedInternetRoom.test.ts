import { afterEach, describe, expect, it } from 'vitest';
import { startDedicatedHost } from '../../../main/cli/dedicatedHost';
import type { MapPort } from '../../../main/reach/portmap/portMapping';
import { PlayerPath } from '../../../shared/lobby/lobbyState';
import { waitFor } from '../../support/waitFor';
import {
  LOOPBACK_ROOM,
  joinByInternetCode,
  loopbackInternetRoom,
  loopbackRendezvous,
  type Cleanups,
  loopbackRendezvousUrl,
} from '../reach/internet/loopbackInternetRoom';

const cleanups: Cleanups = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the dedicated host with --reach internet', () => {
  it('registers the room, prints its NET- code, lets a guest in by it and registers again after a restart', async () => {
    const service = await loopbackRendezvous(cleanups);
    const port = service.server.port;
    const url = loopbackRendezvousUrl(port);
    const lines: string[] = [];
    const { dedicated, code } = await loopbackInternetRoom(cleanups, url, (line) => lines.push(line));
    expect(dedicated.banner).toContain(`Internet code: ${code} (registered with the rendezvous)`);

    // A guest joins by the code: found through the rendezvous, over an encrypted ICE path on loopback.
    const guest = await joinByInternetCode(cleanups, url, code, 'Nina');
    await waitFor(() => dedicated.host.state.players.some((p) => p.name === 'Nina'), 5000, 'Nina in the room');
    expect(dedicated.host.state.players.find((p) => p.name === 'Nina')?.path).toMatch(/direct|relayed/);

    // The rendezvous restarts on the same port: the room registers again by itself, the guest stays.
    await service.close();
    await waitFor(() => lines.some((l) => /registering again by itself/.test(l)), 15_000, 'the room noticing');
    const restartedAt = Date.now();
    await loopbackRendezvous(cleanups, port);
    await waitFor(() => lines.some((l) => l.startsWith(`Internet code: ${code}`)), 20_000, 'registered again');
    console.log(`[cli internet room] registered again ${Date.now() - restartedAt} ms after the rendezvous restarted`);
    expect(guest.endReason).toBeUndefined();
    expect(dedicated.host.state.players.some((p) => p.name === 'Nina')).toBe(true);
  }, 60_000);

  it('fails to start, with the reason, when the rendezvous cannot be reached', async () => {
    const service = await loopbackRendezvous(cleanups);
    const url = loopbackRendezvousUrl(service.server.port);
    await service.close();
    await expect(
      startDedicatedHost({ ...LOOPBACK_ROOM, internet: { rendezvousUrl: url } }, { log: () => undefined }),
    ).rejects.toThrow(/Could not open the internet room/);
  }, 30_000);

  it('with no rendezvous, opens the room through the router; a guest joins by its NET-D… code', async () => {
    const mapped: number[] = [];
    const mapPort: MapPort = ({ internalPort }) => {
      mapped.push(internalPort);
      return Promise.resolve({
        ok: true,
        mapping: {
          protocol: 'pcp',
          externalAddress: '127.0.0.1',
          externalPort: internalPort,
          internalPort,
          onMoved: () => () => undefined,
          close: () => {
            mapped.splice(mapped.indexOf(internalPort), 1);
            return Promise.resolve();
          },
        },
      });
    };
    const dedicated = await startDedicatedHost(
      { ...LOOPBACK_ROOM, internet: { rendezvousUrl: undefined } },
      { log: () => undefined, mapPort },
    );
    cleanups.push(() => dedicated.close());
    const code = /NET-D[0-9A-Z]{3}(-[0-9A-Z]{4}){4}-[0-9A-Z]/.exec(dedicated.banner.join('\n'))?.[0];
    expect(code).toBeDefined();
    expect(dedicated.banner).toContain(`Internet code: ${code} (direct: your router forwards 127.0.0.1:${mapped[0]})`);
    await joinByInternetCode(cleanups, 'ws://127.0.0.1:1/rendezvous/v1', code!, 'Rita');
    await waitFor(() => dedicated.host.state.players.some((p) => p.name === 'Rita'), 5000, 'Rita in the room');
    expect(dedicated.host.state.players.find((p) => p.name === 'Rita')?.path).toBe(PlayerPath.ROUTER);
    await dedicated.close();
    expect(mapped).toEqual([]);
  }, 30_000);

  it('with no rendezvous and no mapping, says what to do and keeps the LAN room', async () => {
    const mapPort: MapPort = () => Promise.resolve({ ok: false, failure: { kind: 'no-router' } });
    const lines: string[] = [];
    const dedicated = await startDedicatedHost(
      { ...LOOPBACK_ROOM, internet: { rendezvousUrl: undefined } },
      { log: (line) => lines.push(line), mapPort },
    );
    cleanups.push(() => dedicated.close());
    expect(lines.join('\n')).toMatch(
      /No internet room: .*did not answer a port-mapping request.*rendezvous.*VPN.* The LAN room stays open\./,
    );
    expect(dedicated.internet).toBeUndefined();
    expect(dedicated.banner.join('\n')).not.toMatch(/Internet code/);
    expect(dedicated.host.port).toBeGreaterThan(0);
  });

  it('with a rendezvous, a room the rendezvous refuses still fails to start (the mapping is not the reason)', async () => {
    const mapPort: MapPort = () =>
      Promise.resolve({ ok: false, failure: { kind: 'cgnat', externalAddress: '100.64.0.2' } });
    const service = await loopbackRendezvous(cleanups);
    const url = loopbackRendezvousUrl(service.server.port);
    await service.close();
    await expect(
      startDedicatedHost({ ...LOOPBACK_ROOM, internet: { rendezvousUrl: url } }, { log: () => undefined, mapPort }),
    ).rejects.toThrow(/Could not open the internet room/);
  }, 30_000);
});
