import { afterEach, describe, expect, it } from 'vitest';
import { PlayerPath } from '../../../../../shared/lobby/lobbyState';
import { readInternetCode } from '../../../../../shared/rendezvous';
import { privateDht } from '../../../../support/privateDht';
import { testBackend } from '../../../../support/testBackend';
import { waitFor } from '../../../../support/waitFor';

// The DHT invite through the real backends, on a private DHT on 127.0.0.1 (never the public bootstrap nodes): no
// router mapping, no rendezvous, the host listens on the DHT and a guest joins by the NET-K… code.
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the DHT invite', () => {
  it('opens an internet room on the DHT with no router and no rendezvous; a guest joins by its code and chats', async () => {
    const dht = await privateDht(cleanups);
    const host = await testBackend(cleanups, { network: { dhtBootstrap: dht.bootstrap } });
    await host.lobby.host({ roomName: 'Behind two routers', reach: 'internet' });
    const internet = host.lobby.view().internet;
    expect(internet).toMatchObject({ code: expect.stringMatching(/^NET-K/), status: 'registered' });
    const read = readInternetCode(internet!.code);
    expect(read.ok && read.invite.kind).toBe('dht');

    const guest = await testBackend(cleanups, { network: { dhtBootstrap: dht.bootstrap } });
    await guest.lobby.joinByCode({ code: internet!.code.toLowerCase() });
    expect(guest.lobby.view()).toMatchObject({ status: 'in-room', internet: { code: internet!.code } });
    await waitFor(() => (host.lobby.view().state?.players.length ?? 0) === 2, 5000, 'the guest in the room');
    expect(host.lobby.view().state!.players[1]!.path).toBe(PlayerPath.DHT);
    guest.lobby.chat('hello through the DHT');
    await waitFor(() => host.lobby.view().state?.chat.length === 1, 5000, 'the guest’s line at the host');
    host.lobby.chat('welcome');
    await waitFor(() => guest.lobby.view().state?.chat.length === 2, 5000, 'both chat lines at the guest');
    await guest.lobby.leave();
    await waitFor(() => host.lobby.view().state?.players.length === 1, 5000, 'the guest gone');
    await host.lobby.leave();
  }, 60_000);
});
