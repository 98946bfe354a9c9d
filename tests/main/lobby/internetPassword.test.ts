import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../main/base/logger';
import { systemScheduler } from '../../../main/base/scheduler';
import { startDedicatedHost } from '../../../main/cli/dedicatedHost';
import { LobbyGuest } from '../../../main/lobby/lobbyGuest';
import { createInternetReach } from '../../../main/reach/internet/index';
import { LOOPBACK_ROOM, loopbackRendezvous, type Cleanups } from '../reach/internet/loopbackInternetRoom';

// Loopback only: the rendezvous, the room and the guest on 127.0.0.1 (ICE host candidates on 127.0.0.1).
const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a password room over an internet path', () => {
  it('runs the same CPace check through the sealed path: the right password gets in, a wrong one is told so', async () => {
    const service = await loopbackRendezvous(cleanups);
    const url = `ws://127.0.0.1:${service.server.port}/rendezvous/v1`;
    const dedicated = await startDedicatedHost(
      { ...LOOPBACK_ROOM, password: 'over the hills', internet: { rendezvousUrl: url } },
      { log: () => undefined, iceHostAddresses: ['127.0.0.1'] },
    );
    cleanups.push(() => dedicated.close());
    const code = /NET(-[0-9A-Z]{4}){4}/.exec(dedicated.banner.join('\n'))![0];
    const join = async (name: string, password: string) => {
      const reach = createInternetReach({
        settings: async () => ({ rendezvousUrl: url, turn: { mode: 'none' } }),
        scheduler: systemScheduler,
        logger: silentLogger,
        hostAddresses: ['127.0.0.1'],
      });
      const located = await reach.plan({ code })!.locate({ passwordGiven: true, onProgress: () => undefined });
      cleanups.push(() => located.close());
      const guest = await LobbyGuest.join({
        host: located.connectTo!.host,
        port: located.connectTo!.port,
        playerName: name,
        colour: '#3ddc97',
        password,
        timeout: 5,
        transport: { openSocket: located.openSocket! },
      });
      cleanups.push(() => guest.leave());
      return guest;
    };
    await expect(join('Eve', 'under the sea')).rejects.toMatchObject({ code: 'wrong-password' });
    const gus = await join('Gus', 'over the hills');
    expect(gus.state.passwordProtected).toBe(true);
    expect(gus.state.players.map((p) => p.name)).toContain('Gus');
  }, 30_000);
});
