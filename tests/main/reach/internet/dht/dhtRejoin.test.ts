import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../../main/base/logger';
import { systemScheduler } from '../../../../../main/base/scheduler';
import { startDedicatedHost } from '../../../../../main/cli/dedicatedHost';
import { LobbyGuest } from '../../../../../main/lobby/lobbyGuest';
import { createInternetReach } from '../../../../../main/reach/internet/index';
import { PlayerPath } from '../../../../../shared/lobby/lobbyState';
import { privateDht } from '../../../../support/privateDht';
import { waitFor } from '../../../../support/waitFor';
import { LOOPBACK_ROOM } from '../loopbackInternetRoom';

// A dedicated room on a private DHT on 127.0.0.1 (no router, no rendezvous), and a guest whose DHT path dies: it
// comes back to its seat over a fresh DHT connection, as an internet guest does over a fresh ICE path.
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a DHT guest whose path dies', () => {
  it('comes back to its seat over a fresh DHT connection, keeping its name, colour and readiness', async () => {
    const dht = await privateDht(cleanups);
    const lines: string[] = [];
    const dedicated = await startDedicatedHost(
      { ...LOOPBACK_ROOM, internet: { rendezvousUrl: undefined } },
      { log: (line) => lines.push(line), dht: dht.node() },
    );
    cleanups.push(() => dedicated.close());
    const code = /Internet code: (NET-K[0-9A-Z-]+) \(direct: guests find the room on the DHT/.exec(
      dedicated.banner.join('\n'),
    )?.[1];
    expect(code).toBeDefined();

    const reach = createInternetReach({
      settings: async () => ({ rendezvousUrl: null, turn: { mode: 'none' } }),
      scheduler: systemScheduler,
      logger: silentLogger,
      dht: dht.node(),
    });
    const located = await reach.locate({ code: code! }, { onProgress: () => undefined });
    cleanups.push(() => located.close());
    const guest = await LobbyGuest.join({
      host: located.connectTo!.host,
      port: located.connectTo!.port,
      playerName: 'Pia',
      colour: '#3ddc97',
      timeout: 5,
      transport: { openSocket: located.openSocket! },
      ...(located.rejoinTimeoutSec !== undefined ? { rejoinTimeout: located.rejoinTimeoutSec } : {}),
      logger: silentLogger,
    });
    cleanups.push(() => guest.leave());
    const host = dedicated.host;
    await waitFor(() => host.state.players.some((p) => p.id === guest.you), 5000, 'Pia in');
    guest.setReady(true);
    await waitFor(() => host.state.players.find((p) => p.id === guest.you)?.ready === true, 5000, 'ready');
    const seat = host.state.players.find((p) => p.id === guest.you)!;
    expect(seat.path).toBe(PlayerPath.DHT);
    guest.chat('before');
    await waitFor(() => host.state.chat.length === 1, 5000, 'the first line');

    // The host lets the guest's path go: its DHT stream is closed, nothing gets through either way any more.
    const peer = host.transport.getPeers()[0]!;
    const at = peer.endpoint.lastIndexOf(':');
    await dedicated.internet!.release!({
      address: peer.endpoint.slice(0, at),
      port: Number(peer.endpoint.slice(at + 1)),
    });
    await waitFor(() => guest.reconnecting, 20_000, 'Pia’s session given up (reconnecting…)');
    await waitFor(() => !guest.reconnecting, 30_000, 'Pia back in her seat');
    expect(guest.endReason).toBeUndefined();
    expect(host.state.players.find((p) => p.id === guest.you)).toMatchObject({
      id: seat.id,
      name: 'Pia',
      colour: seat.colour,
      ready: true,
      path: PlayerPath.DHT,
    });
    guest.chat('after');
    await waitFor(() => host.state.chat.some((l) => l.text === 'after'), 5000, 'chat after coming back');
    expect(host.state.chat.map((l) => l.text)).toEqual(['before', 'after']);
  }, 90_000);
});
