import { createSocket, type RemoteInfo } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import type { LobbyState } from '../../../../shared/lobby/lobbyState';
import { loopbackGuest, loopbackHost, type Cleanups } from '../../../support/loopbackRoom';
import { waitFor } from '../../../support/waitFor';

/** Buffers for bursts, as the link conditioner's sockets have. */
const RELAY_SOCKET = { type: 'udp4', recvBufferSize: 1 << 20, sendBufferSize: 1 << 20 } as const;

// Real sockets on 127.0.0.1 only: a host, a guest, and between them a relay that can drop the guest's datagrams.
const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A one-client relay on 127.0.0.1 in front of `serverPort`: while `mute`, the client's datagrams are dropped, while `deaf` the server's. */
async function muteableRelay(serverPort: number) {
  const front = createSocket(RELAY_SOCKET);
  const back = createSocket(RELAY_SOCKET);
  const relay = { port: 0, mute: false, deaf: false, dropped: 0 };
  let client: RemoteInfo | undefined;
  front.on('message', (d, from) => {
    client = from;
    if (relay.mute) relay.dropped += 1;
    else back.send(d, serverPort, '127.0.0.1');
  });
  back.on('message', (d) => {
    if (relay.deaf) relay.dropped += 1;
    else if (client) front.send(d, client.port, client.address);
  });
  await new Promise<void>((resolve) => back.bind(0, '127.0.0.1', () => resolve()));
  relay.port = await new Promise<number>((resolve) => front.bind(0, '127.0.0.1', () => resolve(front.address().port)));
  cleanups.push(() => new Promise<void>((resolve) => front.close(() => back.close(() => resolve()))));
  return relay;
}

const quietOf = (state: LobbyState, id: number) => state.players.find((p) => p.id === id)?.linkQuiet === true;

describe('a guest’s link going quiet for a moment', () => {
  it('shows it "reconnecting…" to the room while the host hears nothing, then clears it; the seat stays', async () => {
    const host = await loopbackHost(cleanups);
    const relay = await muteableRelay(host.port);
    const guest = await loopbackGuest(cleanups, relay.port, 'Gus');
    const id = guest.you;
    const hostSaw: boolean[] = [];
    host.onState((s) => hostSaw.push(quietOf(s, id)));
    const guestSaw: boolean[] = [];
    guest.onState((s) => guestSaw.push(quietOf(s, id)));
    const left: string[] = [];
    guest.onEnd((end) => left.push(end.code));

    // Heard: traffic flows both ways for a few heartbeats and nobody is marked.
    await waitFor(() => host.state.players.find((p) => p.id === id)?.pingMs !== null, 5000);
    expect(hostSaw.some(Boolean)).toBe(false);

    // The guest's datagrams stop (as in an ICE restart gap): the host marks it, and tells the room (the guest
    // still hears the host, so its own screen shows the marker too). Under the 5 s transport timeout.
    relay.mute = true;
    await waitFor(() => quietOf(host.state, id) && quietOf(guest.state, id), 4500);
    expect(host.state.players.find((p) => p.id === id)?.awayUntil).toBeUndefined();
    relay.mute = false;
    expect(relay.dropped).toBeGreaterThan(0);

    // Heard again: cleared everywhere, the same seat (same id, name, place), no seat hold, nobody left.
    await waitFor(() => !quietOf(host.state, id) && !quietOf(guest.state, id), 5000);
    expect(host.state.players.map((p) => [p.id, p.name])).toEqual([
      [0, 'Hana'],
      [id, 'Gus'],
    ]);
    expect(host.state.players.find((p) => p.id === id)?.awayUntil).toBeUndefined();
    expect(hostSaw).toContain(true);
    expect(guestSaw).toContain(true);
    expect(left).toEqual([]);
    guest.chat('still here');
    await waitFor(() => host.state.chat.some((l) => l.from === id && l.text === 'still here'), 5000);
  });

  it('shows the guest itself "reconnecting…" while it hears nothing (both ways cut), and keeps chat typed meanwhile', async () => {
    const host = await loopbackHost(cleanups);
    const relay = await muteableRelay(host.port);
    const guest = await loopbackGuest(cleanups, relay.port, 'Gus');
    const id = guest.you;
    await waitFor(() => host.state.players.find((p) => p.id === id)?.pingMs !== null, 5000);
    expect(quietOf(guest.state, id)).toBe(false);

    relay.mute = true;
    relay.deaf = true;
    // No host event can arrive: the guest's own watch marks its row.
    await waitFor(() => quietOf(guest.state, id), 4500);
    expect(guest.reconnecting).toBe(false); // the session lives: no seat hold, chat is accepted
    guest.chat('one');
    guest.chat('two');
    relay.mute = false;
    relay.deaf = false;

    await waitFor(() => !quietOf(host.state, id) && !quietOf(guest.state, id), 5000);
    await waitFor(() => host.state.chat.filter((l) => l.from === id).length >= 2, 5000);
    expect(host.state.chat.filter((l) => l.from === id).map((l) => l.text)).toEqual(['one', 'two']);
    expect(host.state.players.map((p) => p.id)).toEqual([0, id]);
    expect(guest.endReason).toBeUndefined();
  });
});
