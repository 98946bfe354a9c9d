import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger, type Logger } from '../../../../main/base/logger';
import { systemScheduler } from '../../../../main/base/scheduler';
import { startRendezvousMode } from '../../../../main/cli/rendezvousMode';
import { startDedicatedHost } from '../../../../main/cli/dedicatedHost';
import { LobbyGuest } from '../../../../main/lobby/lobbyGuest';
import { createInternetReach } from '../../../../main/reach/internet/index';
import { waitFor } from '../../../support/waitFor';

// Loopback only: rendezvous, room and guest on 127.0.0.1; ICE offered 127.0.0.1 as a host candidate.
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('an internet guest whose path dies (ICE restart over the rendezvous)', () => {
  it('gets a new path within seconds and keeps its seat and its chat, in order, none lost or doubled', async () => {
    const service = await startRendezvousMode(
      { host: '127.0.0.1', port: 0, turnUrls: [], turnSecret: undefined, logFile: undefined },
      () => undefined,
    );
    cleanups.push(() => service.close());
    const url = `ws://127.0.0.1:${service.server.port}/rendezvous/v1`;
    const dedicated = await startDedicatedHost(
      {
        name: 'Always On',
        port: 0,
        maxPlayers: 4,
        password: undefined,
        discoveryPort: null,
        announce: false,
        bindAddress: '127.0.0.1',
        advertiseAddress: '127.0.0.1',
        logFile: undefined,
        internet: { rendezvousUrl: url },
      },
      { log: () => undefined, iceHostAddresses: ['127.0.0.1'] },
    );
    cleanups.push(() => dedicated.close());
    const code = /NET(-[0-9A-Z]{4}){4}/.exec(dedicated.banner.join('\n'))![0];
    const restarts: string[] = [];
    const logger: Logger = { ...silentLogger, info: (line) => restarts.push(line) };
    const reach = createInternetReach({
      settings: async () => ({ rendezvousUrl: url, turn: { mode: 'none' } }),
      scheduler: systemScheduler,
      logger,
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
    const host = dedicated.host;
    await waitFor(() => host.state.players.some((p) => p.id === guest.you), 5000, 'Nina in');
    guest.setReady(true);
    await waitFor(() => host.state.players.find((p) => p.id === guest.you)?.ready === true, 5000, 'ready');
    const peer = host.transport.getPeers()[0]!;
    const before = { id: peer.id, endpoint: peer.endpoint };

    // The host's end of the path dies (its ICE session closed): nothing gets through either way any more.
    const at = before.endpoint.lastIndexOf(':');
    const source = { address: before.endpoint.slice(0, at), port: Number(before.endpoint.slice(at + 1)) };
    const cutAt = performance.now();
    await dedicated.internet!.release!(source);
    // Chat typed into the gap: the session's reliable stream carries it over to the new path.
    guest.chat('one');
    guest.chat('two');
    await waitFor(() => peer.endpoint !== before.endpoint, 15_000, 'the peer moving to a new path');
    const gapMs = performance.now() - cutAt;
    guest.chat('three');
    await waitFor(() => host.state.chat.length >= 3, 5000, 'the chat');
    console.log(
      `[ice restart] path dead → session on a new path after ${Math.round(gapMs)} ms; ${restarts.join('; ')}`,
    );
    expect(host.state.chat.map((l) => l.text)).toEqual(['one', 'two', 'three']);
    expect(host.transport.getPeers().map((p) => p.id)).toEqual([before.id]);
    expect(host.state.players.find((p) => p.id === guest.you)).toMatchObject({ name: 'Nina', ready: true });
    expect(guest.endReason).toBeUndefined();
    expect(restarts.some((l) => /internet path restarted/.test(l))).toBe(true);
    expect(gapMs).toBeLessThan(12_000);
  }, 60_000);
});
