import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Server, createMemoryNetwork, type MemoryNetwork } from '../../../main/net/index';
import { LobbyGuest, type LobbyEnd } from '../../../main/lobby/lobbyGuest';
import { lobbyTransportOptions } from '../../../main/lobby/lobbyTransport';
import {
  deriveRoomKey,
  freshSalt,
  hostChannel,
  startHostCheck,
  systemRandom,
} from '../../../main/lobby/passwordExchange';
import { LobbyMessage, RejectReason } from '../../../shared/lobby/lobbyMessages';
import { LOBBY_PALETTE } from '../../../shared/lobby/lobbyPalette';
import { createLobbyState, type LobbyState } from '../../../shared/lobby/lobbyState';
import type { Cleanups } from '../../support/loopbackRoom';
import { waitFor } from '../../support/waitFor';

// A memory network: the "host" below is whoever answers at the room's address once the guest's link went silent.
const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const HOST = '10.9.0.1';
const GUEST = '10.9.0.20';
const FAST = { timeout: 1, heartbeatInterval: 0.2 };
const GRACE_SEC = 4;

function roomWith(guestId: number): LobbyState {
  const state = createLobbyState(
    { roomName: 'Friday LAN', capacity: 8, passwordProtected: false },
    { name: 'Hana', colour: LOBBY_PALETTE[0] },
  );
  const guest = { id: guestId, name: 'Gus', colour: LOBBY_PALETTE[1]!, ready: false, host: false, pingMs: null };
  return { ...state, players: [...state.players, guest] };
}

/**
 * A guest seated in a room whose link the test cuts; once the guest tries to come back, `onResume` answers its
 * resume hellos (what a fake host at the room's address would do). Counts the resume hellos and proofs it got.
 */
async function seatedThenImpersonated(onResume: (peerId: number, server: Server) => void) {
  const network: MemoryNetwork = createMemoryNetwork({ defaultAddress: GUEST });
  let cut = false;
  network.drop = (_d, from, to) => cut && (from.address === GUEST || to.address === GUEST);
  const transport = { openSocket: network.openSocket, ...FAST };
  const server = await Server.listen({ ...lobbyTransportOptions(transport), port: 0, host: HOST });
  cleanups.push(() => server.close());
  const seen = { resumes: 0, proofs: 0 };
  server.onMessage(LobbyMessage.HELLO, (peer, hello) => {
    if (hello.resume === undefined) {
      const welcome = { you: peer.id, state: roomWith(peer.id), resume: 'r'.repeat(63), graceSec: GRACE_SEC };
      return server.sendTo(peer.id, LobbyMessage.WELCOME, welcome, Channel.RELIABLE_ORDERED);
    }
    seen.resumes += 1;
    onResume(peer.id, server);
  });
  server.onMessage(LobbyMessage.PROOF, () => (seen.proofs += 1));
  const guest = await LobbyGuest.join({
    host: HOST,
    port: server.port,
    playerName: 'Gus',
    colour: '#3ddc97',
    password: 'the room password',
    timeout: 2,
    transport: { openSocket: network.openSocket, ...FAST },
  });
  cleanups.push(() => guest.leave());
  const ended = new Promise<LobbyEnd>((resolve) => guest.onEnd(resolve));
  cut = true;
  await waitFor(() => guest.reconnecting, 5000, 'the guest noticing the cut');
  cut = false;
  return { seen, ended };
}

describe('a guest coming back to its seat', () => {
  it('never answers a password challenge (the real host never asks on a resume): it ends the rejoin', async () => {
    const salt = freshSalt();
    const guess = { key: await deriveRoomKey('a guess', salt), salt };
    const { seen, ended } = await seatedThenImpersonated((peerId, server) => {
      const peer = server.getPeer(peerId)!;
      const check = startHostCheck(guess, hostChannel(peer, {}), systemRandom);
      server.sendTo(peerId, LobbyMessage.CHALLENGE, check.challenge, Channel.RELIABLE_ORDERED);
    });
    const end = await ended;
    expect(end.code).toBe('invalid-room');
    expect(end.message).toMatch(/asked for the password/);
    expect(seen.resumes).toBe(1);
    expect(seen.proofs).toBe(0);
  }, 20_000);

  it('takes a wrong-password refusal as final: one try, not one a second for the whole grace', async () => {
    const { seen, ended } = await seatedThenImpersonated((peerId, server) =>
      server.sendTo(
        peerId,
        LobbyMessage.REJECTED,
        { reason: RejectReason.WRONG_PASSWORD, message: 'Wrong password for this room.' },
        Channel.RELIABLE_ORDERED,
      ),
    );
    const end = await ended;
    expect(end.code).toBe('wrong-password');
    expect(seen.resumes).toBe(1);
  }, 20_000);

  it('takes an invalid room as final too', async () => {
    const { seen, ended } = await seatedThenImpersonated((peerId, server) =>
      server.sendTo(peerId, LobbyMessage.WELCOME, { you: peerId, state: {} } as never, Channel.RELIABLE_ORDERED),
    );
    const end = await ended;
    expect(end.code).toBe('invalid-room');
    expect(seen.resumes).toBe(1);
  }, 20_000);
});
