import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../main/base/logger';
import {
  joinByInternetCode,
  loopbackInternetRoom,
  loopbackRendezvous,
  type Cleanups,
  loopbackRendezvousUrl,
} from '../reach/internet/loopbackInternetRoom';

// Loopback only: the rendezvous, the room and the guest on 127.0.0.1 (ICE host candidates on 127.0.0.1).
const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a password room over an internet path', () => {
  it('runs the same CPace check through the sealed path: the right password gets in, a wrong one is told so', async () => {
    const service = await loopbackRendezvous(cleanups);
    const url = loopbackRendezvousUrl(service.server.port);
    const { code } = await loopbackInternetRoom(cleanups, url, () => undefined, { password: 'over the hills' });
    const join = (name: string, password: string) =>
      joinByInternetCode(cleanups, url, code, name, silentLogger, password);
    await expect(join('Eve', 'under the sea')).rejects.toMatchObject({ code: 'wrong-password' });
    const gus = await join('Gus', 'over the hills');
    expect(gus.state.passwordProtected).toBe(true);
    expect(gus.state.players.map((p) => p.name)).toContain('Gus');
  }, 30_000);
});
