import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../main/base/logger';
import { systemScheduler } from '../../../main/base/scheduler';
import { startDedicatedHost } from '../../../main/cli/dedicatedHost';
import type { HostCliOptions } from '../../../main/cli/hostCliArgs';
import { startRendezvousMode, type RendezvousMode } from '../../../main/cli/rendezvousMode';
import { LobbyGuest } from '../../../main/lobby/lobbyGuest';
import { createInternetReach } from '../../../main/reach/internet/index';
import { waitFor } from '../../support/waitFor';

// Loopback only: the rendezvous and the room on 127.0.0.1, ICE offered 127.0.0.1 as a host candidate.
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ROOM: HostCliOptions = {
  name: 'Always On',
  port: 0,
  maxPlayers: 4,
  password: undefined,
  discoveryPort: null,
  announce: false,
  bindAddress: '127.0.0.1',
  advertiseAddress: '127.0.0.1',
  logFile: undefined,
};

async function rendezvous(port = 0): Promise<RendezvousMode> {
  const mode = await startRendezvousMode(
    { host: '127.0.0.1', port, turnUrls: [], turnSecret: undefined, logFile: undefined },
    () => undefined,
  );
  cleanups.push(() => mode.close());
  return mode;
}

describe('the dedicated host with --reach internet', () => {
  it('registers the room, prints its NET- code, lets a guest in by it and registers again after a restart', async () => {
    const service = await rendezvous();
    const port = service.server.port;
    const url = `ws://127.0.0.1:${port}/rendezvous/v1`;
    const lines: string[] = [];
    const dedicated = await startDedicatedHost(
      { ...ROOM, internet: { rendezvousUrl: url } },
      { log: (line) => lines.push(line), iceHostAddresses: ['127.0.0.1'] },
    );
    cleanups.push(() => dedicated.close());
    const codeLine = dedicated.banner.find((line) => line.startsWith('Internet code: '));
    expect(codeLine).toMatch(/^Internet code: NET(-[0-9A-Z]{4}){4} \(registered with the rendezvous\)$/);
    const code = /NET(-[0-9A-Z]{4}){4}/.exec(codeLine!)![0];

    // A guest joins by the code: found through the rendezvous, over an encrypted ICE path on loopback.
    const reach = createInternetReach({
      settings: async () => ({ rendezvousUrl: url, turn: { mode: 'none' } }),
      scheduler: systemScheduler,
      logger: silentLogger,
      hostAddresses: ['127.0.0.1'],
    });
    const located = await reach.plan({ code })!.locate({ passwordGiven: false, onProgress: () => undefined });
    cleanups.push(() => located.close());
    const guest = await LobbyGuest.join({
      host: located.connectTo!.host,
      port: located.connectTo!.port,
      playerName: 'Nina',
      colour: '#3ddc97',
      timeout: 5,
      transport: { openSocket: located.openSocket! },
    });
    cleanups.push(() => guest.leave());
    await waitFor(() => dedicated.host.state.players.some((p) => p.name === 'Nina'), 5000, 'Nina in the room');
    expect(dedicated.host.state.players.find((p) => p.name === 'Nina')?.path).toMatch(/direct|relayed/);

    // The rendezvous restarts on the same port: the room registers again by itself, the guest stays.
    await service.close();
    await waitFor(() => lines.some((l) => /registering again by itself/.test(l)), 15_000, 'the room noticing');
    const restartedAt = Date.now();
    await rendezvous(port);
    await waitFor(() => lines.some((l) => l.startsWith(`Internet code: ${code}`)), 20_000, 'registered again');
    console.log(`[cli internet room] registered again ${Date.now() - restartedAt} ms after the rendezvous restarted`);
    expect(guest.endReason).toBeUndefined();
    expect(dedicated.host.state.players.some((p) => p.name === 'Nina')).toBe(true);
  }, 60_000);

  it('fails to start, with the reason, when the rendezvous cannot be reached', async () => {
    const service = await rendezvous();
    const url = `ws://127.0.0.1:${service.server.port}/rendezvous/v1`;
    await service.close();
    await expect(
      startDedicatedHost({ ...ROOM, internet: { rendezvousUrl: url } }, { log: () => undefined }),
    ).rejects.toThrow(/Could not open the internet room/);
  }, 30_000);
});
