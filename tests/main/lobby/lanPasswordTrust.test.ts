import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Server } from '../../../main/net/index';
import { unpackHeader } from '../../../main/net/v1/header';
import { lobbyTransportOptions } from '../../../main/lobby/lobbyTransport';
import { LobbyGuest } from '../../../main/lobby/lobbyGuest';
import { CHALLENGE_UNREADABLE_MESSAGE, HOST_UNPROVEN_MESSAGE } from '../../../main/lobby/guestJoin';
import {
  deriveRoomKey,
  freshSalt,
  fromBase64Url,
  hostChannel,
  startHostCheck,
  systemRandom,
  toBase64Url,
  type PasswordProof,
} from '../../../main/lobby/passwordExchange';
import { LobbyMessage } from '../../../shared/lobby/lobbyMessages';
import { LOBBY_PALETTE } from '../../../shared/lobby/lobbyPalette';
import { createLobbyState, type LobbyState } from '../../../shared/lobby/lobbyState';
import { loopbackHost, type Cleanups } from '../../support/loopbackRoom';
import { startTapRelay } from '../../support/labTapRelay';
import { waitFor } from '../../support/waitFor';
import { startOfferStripper } from '../../support/offerStripper';
import { Client } from '../../../main/net/index';
import { answerChallenge, type PasswordChallenge } from '../../../main/lobby/passwordExchange';
import { helloPayload } from '../../../shared/lobby/lobbyMessages';

// Real sockets on 127.0.0.1 only: a host, a guest, and in between a relay that records every datagram.
const cleanups: Cleanups = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const latin1 = (d: Uint8Array) => Buffer.from(d).toString('latin1');

/** The first value of `"field": "…"` in any of the datagrams (lobby bodies are JSON on a v1 link). */
function field(datagrams: readonly Uint8Array[], name: string): string | undefined {
  const pattern = new RegExp(`"${name}":\\s*"([A-Za-z0-9_-]+)"`);
  for (const d of datagrams) {
    const match = pattern.exec(latin1(d));
    if (match) return match[1];
  }
  return undefined;
}

/** A random source that records what it hands out, and one that hands out given bytes in turn. */
function recording() {
  const draws: Uint8Array[] = [];
  const random = (size: number) => {
    const bytes = new Uint8Array(randomBytes(size));
    draws.push(bytes);
    return bytes;
  };
  return { draws, random };
}
const replaying = (draws: readonly Uint8Array[]) => {
  let next = 0;
  return (size: number) => {
    const bytes = draws[next++];
    if (!bytes || bytes.length !== size) throw new Error('replay out of step');
    return bytes;
  };
};

describe('a sniffed LAN password exchange', () => {
  it('gives nothing to test a guess against: the real password cannot be confirmed from the capture', async () => {
    const PASSWORD = 'correct horse battery staple';
    const hostRandom = recording();
    const h = await loopbackHost(cleanups, { password: PASSWORD, random: hostRandom.random });
    const tap = await startTapRelay(h.port);
    cleanups.push(() => tap.close());
    // A v1 link, the weakest case for the listener: no native keys in the channel id, so all of it is public.
    const guest = await LobbyGuest.join({
      host: '127.0.0.1',
      port: tap.port,
      playerName: 'Gus',
      colour: '#3ddc97',
      password: PASSWORD,
      timeout: 5,
      transport: { native: false },
    });
    cleanups.push(() => guest.leave());
    expect(guest.state.players.map((p) => p.name)).toEqual(['Hana', 'Gus']);

    // What the neighbour captured: the challenge and the welcome downstream, the proof upstream.
    const { upstream, downstream } = tap.captured;
    const salt = field(downstream, 'salt')!;
    const sid = field(downstream, 'sid')!;
    const hostShare = field(downstream, 'share')!;
    const confirm = field(downstream, 'confirm')!;
    const proof: PasswordProof = { share: field(upstream, 'share')!, tag: field(upstream, 'tag')! };
    const token = downstream.map((d) => unpackHeader(d)?.token ?? 0n).find((t) => t !== 0n)!;
    expect([salt, sid, hostShare, confirm, proof.share, proof.tag, token].every(Boolean)).toBe(true);
    const all = [...upstream, ...downstream].map(latin1).join('');
    expect(all).not.toContain(PASSWORD);
    expect(toBase64Url(fromBase64Url(sid))).toBe(toBase64Url(hostRandom.draws[0]!)); // the capture is this run's

    // The listener knows the real password and every byte above; it re-runs the host's side on the captured
    // sid with the password's key. Under the old design (salt, nonce and HMAC(scrypt(pw, salt), nonce) on
    // the wire) this step was the whole attack: recompute the HMAC, compare, done. Here the host's side also
    // needs the host's ephemeral scalar, which never left the host: any scalar the listener picks fails.
    const room = { key: await deriveRoomKey(PASSWORD, fromBase64Url(salt)), salt: Buffer.from(fromBase64Url(salt)) };
    // The guest offered no native (its transport said so) and the host saw none: v1 on both ends.
    const channel = { token, binding: undefined, protocol: 'v1', nativeOffered: false } as const;
    for (let guess = 0; guess < 20; guess++) {
      const listener = startHostCheck(room, channel, replaying([fromBase64Url(sid), randomBytes(32)]));
      expect(listener.challenge.share).not.toBe(hostShare);
      expect(listener.check(proof)).toEqual({ ok: false, reason: 'mismatch' });
    }
    // The control: with the host's own scalar (from its recorded randomness, not the capture) the very same
    // computation confirms the proof and reproduces the host's confirmation, so the check above was a real one.
    const withHostSecret = startHostCheck(room, channel, replaying(hostRandom.draws));
    expect(withHostSecret.challenge.share).toBe(hostShare);
    expect(withHostSecret.check(proof)).toMatchObject({ ok: true, confirm });
    // And a wrong password fails even with the host's scalar: the password is what the proof is about.
    const wrongRoom = { key: await deriveRoomKey('Tr0ub4dor&3', fromBase64Url(salt)), salt: room.salt };
    expect(startHostCheck(wrongRoom, channel, replaying(hostRandom.draws)).check(proof).ok).toBe(false);
  });
});

/** A transport server on 127.0.0.1 that speaks the lobby as a hostile host would: `onHello` decides. */
async function hostileHost(onHello: (peerId: number, server: Server) => void) {
  const server = await Server.listen({ ...lobbyTransportOptions(), port: 0, host: '127.0.0.1' });
  cleanups.push(() => server.close());
  server.onMessage(LobbyMessage.HELLO, (peer) => onHello(peer.id, server));
  return server;
}

/** A room with the guest in it, as a welcome carries it. */
function roomWith(guestId: number, passwordProtected: boolean): LobbyState {
  const state = createLobbyState(
    { roomName: 'Friday LAN', capacity: 8, passwordProtected },
    { name: 'Hana', colour: LOBBY_PALETTE[0] },
  );
  const guest = { id: guestId, name: 'Gus', colour: LOBBY_PALETTE[1]!, ready: false, host: false, pingMs: null };
  return { ...state, players: [...state.players, guest] };
}

const joinHostile = (server: Server) =>
  LobbyGuest.join({
    host: '127.0.0.1',
    port: server.port,
    playerName: 'Gus',
    colour: '#3ddc97',
    password: 'the real password',
    timeout: 5,
  });

describe('a host that does not know the room password', () => {
  it('is caught by the guest: its challenge is answered, its welcome carries no confirmation that checks', async () => {
    const proofs: unknown[] = [];
    const salt = freshSalt();
    const guess = { key: await deriveRoomKey('a guess', salt), salt };
    const server = await hostileHost((peerId, s) => {
      const peer = s.getPeer(peerId)!;
      const check = startHostCheck(guess, hostChannel(peer, {}), systemRandom);
      s.sendTo(peerId, LobbyMessage.CHALLENGE, check.challenge, Channel.RELIABLE_ORDERED);
      s.onMessage(LobbyMessage.PROOF, (from, proof) => {
        if (from.id !== peerId) return;
        proofs.push(proof);
        // Its guess was wrong, so it cannot confirm: it welcomes the guest anyway with a made-up tag.
        const fake = toBase64Url(randomBytes(64));
        s.sendTo(
          peerId,
          LobbyMessage.WELCOME,
          { you: peerId, state: roomWith(peerId, true), confirm: fake },
          Channel.RELIABLE_ORDERED,
        );
      });
    });
    await expect(joinHostile(server)).rejects.toMatchObject({ code: 'invalid-room', message: HOST_UNPROVEN_MESSAGE });
    expect(proofs).toHaveLength(1); // one online guess for the impostor, and that is all
  });

  it('is caught when it claims a password room and lets the guest in without asking', async () => {
    const server = await hostileHost((peerId, s) =>
      s.sendTo(peerId, LobbyMessage.WELCOME, { you: peerId, state: roomWith(peerId, true) }, Channel.RELIABLE_ORDERED),
    );
    await expect(joinHostile(server)).rejects.toMatchObject({ code: 'invalid-room', message: HOST_UNPROVEN_MESSAGE });
  });

  it('a challenge of another design (an old v2 nonce and salt) is a clear refusal, not a silent wait', async () => {
    const server = await hostileHost((peerId, s) =>
      s.sendTo(
        peerId,
        LobbyMessage.CHALLENGE,
        { nonce: toBase64Url(randomBytes(32)), salt: toBase64Url(randomBytes(16)) } as never,
        Channel.RELIABLE_ORDERED,
      ),
    );
    const started = performance.now();
    await expect(joinHostile(server)).rejects.toMatchObject({
      code: 'invalid-room',
      message: CHALLENGE_UNREADABLE_MESSAGE,
    });
    console.log(`[password] an unreadable challenge refused in ${(performance.now() - started).toFixed(0)} ms`);
  });

  it('a room without a password that welcomes a guest who typed one is still joined (nothing to prove)', async () => {
    const server = await hostileHost((peerId, s) =>
      s.sendTo(peerId, LobbyMessage.WELCOME, { you: peerId, state: roomWith(peerId, false) }, Channel.RELIABLE_ORDERED),
    );
    const guest = await joinHostile(server);
    cleanups.push(() => guest.leave());
    await waitFor(() => guest.state.players.length === 2, 2000, 'the room');
    expect(guest.state.passwordProtected).toBe(false);
  });
});

describe('a password room behind a relay that strips the native offer', () => {
  it('is refused by a guest that offered native: a challenge over v1 means someone may be in between', async () => {
    const h = await loopbackHost(cleanups, { password: 'pw' });
    const stripper = await startOfferStripper(h.port);
    cleanups.push(() => stripper.close());
    const proofs: unknown[] = [];
    h.transport.onMessage(LobbyMessage.PROOF, (_peer, proof) => proofs.push(proof));
    const join = LobbyGuest.join({
      host: '127.0.0.1',
      port: stripper.port,
      playerName: 'Gus',
      colour: '#3ddc97',
      password: 'pw',
      timeout: 5,
    });
    await expect(join).rejects.toMatchObject({
      code: 'invalid-room',
      message: expect.stringMatching(/someone may be between you and the host/),
    });
    expect(stripper.stripped).toBeGreaterThan(0);
    expect(proofs).toEqual([]); // no password run at all over the stripped link
    expect(h.state.players.map((p) => p.name)).toEqual(['Hana']);
  });

  it('fails the check even for a guest that answers anyway: each end binds what it knows of the offer', async () => {
    const h = await loopbackHost(cleanups, { password: 'pw' });
    const stripper = await startOfferStripper(h.port);
    cleanups.push(() => stripper.close());
    // A guest that offered native (its transport's default) and answers the v1 challenge as an older one would.
    const client = new Client(lobbyTransportOptions());
    cleanups.push(() => client.close());
    await client.connect('127.0.0.1', stripper.port, { timeout: 5 });
    expect(client.protocol).toBe('v1');
    const refused = new Promise<unknown>((resolve) => client.onMessage(LobbyMessage.REJECTED, resolve));
    client.onMessage(LobbyMessage.CHALLENGE, (challenge) => {
      const channel = { token: client.token!, binding: undefined, protocol: 'v1', nativeOffered: true } as const;
      void answerChallenge('pw', challenge as PasswordChallenge, channel, systemRandom).then((answer) =>
        client.send(LobbyMessage.PROOF, answer.proof, Channel.RELIABLE_ORDERED),
      );
    });
    client.send(
      LobbyMessage.HELLO,
      helloPayload('Gus', '#3ddc97', undefined, undefined, true),
      Channel.RELIABLE_ORDERED,
    );
    await expect(refused).resolves.toMatchObject({ reason: 'wrong-password' });
    expect(h.state.players.map((p) => p.name)).toEqual(['Hana']);
  });
});
