import { afterEach, describe, expect, it } from 'vitest';
import { Channel, Client } from '../../../../main/net/index';
import type { LobbyHost } from '../../../../main/lobby/host/lobbyHost';
import { type LobbyHostOptions } from '../../../../main/lobby/host/lobbyHost';
import { answerChallenge, systemRandom, type PasswordChallenge } from '../../../../main/lobby/passwordExchange';
import { LOBBY_PROTOCOL_VERSION } from '../../../../shared/lobby/lobbyState';
import { DEFAULT_BACKOFF } from '../../../../main/lobby/host/lobbyHostLimits';
import { waitFor } from '../../../support/waitFor';
import { ManualScheduler } from '../../../support/manualScheduler';
import { loopbackGuest, loopbackHost } from '../../../support/loopbackRoom';

// Real rooms on 127.0.0.1 with discovery off; every client connects over loopback.
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const host = (options: Partial<LobbyHostOptions> = {}) => loopbackHost(cleanups, options);

const join = (h: LobbyHost, name: string, password?: string) =>
  loopbackGuest(cleanups, h.port, name, password !== undefined ? { password } : {});

/** A transport client that speaks the lobby only when the test says, recording what the host sends. */
async function rawGuest(h: LobbyHost) {
  const client = new Client();
  cleanups.push(() => client.close());
  const got: { type: string; payload: Record<string, unknown> }[] = [];
  for (const type of ['lobby.challenge', 'lobby.welcome', 'lobby.rejected']) {
    client.onMessage(type, (payload) => got.push({ type, payload }));
  }
  let gone = '';
  client.onDisconnect((reason) => (gone = reason || 'disconnected'));
  await client.connect('127.0.0.1', h.port, { timeout: 2 });
  const say = (type: string, payload: object) => client.send(type, payload as never, Channel.RELIABLE_ORDERED);
  return { client, got, say, gone: () => gone, last: (type: string) => got.filter((g) => g.type === type).at(-1) };
}

type RawGuest = Awaited<ReturnType<typeof rawGuest>>;
const V = LOBBY_PROTOCOL_VERSION;

/** Says hello and waits for the room's password challenge. */
async function challenged(raw: RawGuest, name: string): Promise<PasswordChallenge> {
  raw.say('lobby.hello', { v: V, name, colour: '#3ddc97' });
  await waitFor(() => raw.last('lobby.challenge') !== undefined, 2000, 'a challenge');
  return raw.last('lobby.challenge')!.payload as unknown as PasswordChallenge;
}

/** The proof for `challenge`, made on `on`'s connection (its token, native channel binding and offer: a default Client offers). */
async function proofFor(challenge: PasswordChallenge, password: string, on: RawGuest) {
  const link = {
    token: on.client.token!,
    binding: on.client.channelBinding,
    protocol: on.client.protocol!,
    nativeOffered: true,
  };
  return answerChallenge(password, challenge, link, systemRandom);
}

describe('admission before the room', () => {
  it('drops a peer that never says hello after the deadline; one that leaves clears it', async () => {
    const h = await host({ helloTimeout: 0.3 });
    const silent = await rawGuest(h);
    const leaver = await rawGuest(h);
    await waitFor(() => h.stats().pending === 2, 2000, 'two pending peers');
    await leaver.client.close();
    await waitFor(() => h.stats().pending === 1, 2000, 'the leaver forgotten');
    await waitFor(() => silent.gone() !== '', 3000, 'the silent peer dropped');
    expect(h.stats()).toMatchObject({ pending: 0, expired: 1 });
    expect(h.transport.getPeers()).toHaveLength(0);
  });

  it('silent connections never hold the room: a friend gets in while twelve sit there', async () => {
    // A deadline longer than the test: the friend cannot be getting in because the silent ones expired first, and
    // how long the join took (a measure of the machine) needs no bound.
    const h = await host({ capacity: 2, password: 'pw', helloTimeout: 60 });
    const silent = [];
    for (let i = 0; i < 12; i++) silent.push(await rawGuest(h));
    await waitFor(() => h.stats().pending <= 4, 2000, 'per-source limit');
    const started = performance.now();
    const friend = await join(h, 'Gus', 'pw');
    console.log(
      `[admission] a friend got in past 12 silent connections in ${(performance.now() - started).toFixed(0)} ms`,
    );
    expect(h.stats().expired).toBe(0);
    expect(friend.state.players.map((p) => p.name)).toEqual(['Hana', 'Gus']);
    expect(h.stats().evicted).toBeGreaterThanOrEqual(8);
    // Never more transport peers than the room plus its pre-lobby budget.
    expect(h.transport.getPeers().length).toBeLessThanOrEqual(2 + 8);
  });

  it('tells an old (version 1) guest that the versions differ, whatever its hello carries', async () => {
    const h = await host({ password: 'pw' });
    const old = await rawGuest(h);
    old.say('lobby.hello', { v: 1, name: 'Old', colour: '#22cc88', password: 'pw' });
    await waitFor(() => old.last('lobby.rejected') !== undefined, 2000, 'the rejection');
    expect(old.last('lobby.rejected')?.payload).toMatchObject({
      reason: 'version-mismatch',
      message: expect.stringMatching(/different LAN Party version/),
    });
    expect(h.state.players).toHaveLength(1);
  });
});

describe('passwords by a CPace exchange bound to the connection', () => {
  it('sends a fresh challenge per connection, admits the right proof with its confirmation, refuses a replay', async () => {
    const h = await host({ password: 'open sesame' });
    const first = await rawGuest(h);
    expect(first.client.protocol).toBe('native');
    expect(first.client.channelBinding).toHaveLength(32);
    const challenge = await challenged(first, 'Gus');
    const answer = await proofFor(challenge, 'open sesame', first);
    first.say('lobby.proof', answer.proof);
    await waitFor(() => first.last('lobby.welcome') !== undefined, 2000, 'the welcome');
    // The host proves it knew the password too: its confirmation checks on the guest's side.
    expect(answer.hostConfirmed(first.last('lobby.welcome')!.payload.confirm as string)).toBe(true);

    const replay = await rawGuest(h);
    const again = await challenged(replay, 'Mallory');
    expect(again.sid).not.toBe(challenge.sid);
    expect(again.share).not.toBe(challenge.share);
    expect(again.salt).toBe(challenge.salt);
    replay.say('lobby.proof', answer.proof);
    await waitFor(() => replay.last('lobby.rejected') !== undefined, 2000, 'the replay refused');
    expect(replay.last('lobby.rejected')!.payload.reason).toBe('wrong-password');
    expect(h.state.players.map((p) => p.name)).toEqual(['Hana', 'Gus']);
  });

  it('refuses a proof made on another connection: a relayed challenge does not check', async () => {
    const h = await host({ password: 'pw' });
    // Mallory relays the room's challenge to a victim, who answers it on its own connection (to Mallory).
    const mallory = await rawGuest(h);
    const victim = await rawGuest(h);
    const challenge = await challenged(mallory, 'Mallory');
    const relayed = await proofFor(challenge, 'pw', victim);
    mallory.say('lobby.proof', relayed.proof);
    await waitFor(() => mallory.last('lobby.rejected') !== undefined, 2000, 'the relayed proof refused');
    expect(mallory.last('lobby.rejected')!.payload.reason).toBe('wrong-password');
    expect(h.state.players).toHaveLength(1);
    // The same password on the right connection gets in, so it was the binding that refused.
    const own = await proofFor(await challenged(victim, 'Vic'), 'pw', victim);
    victim.say('lobby.proof', own.proof);
    await waitFor(() => victim.last('lobby.welcome') !== undefined, 2000, 'the victim admitted on its own link');
  });

  it('a guest without the password hears that the room needs one; garbled or old proofs get a clear refusal', async () => {
    const h = await host({ password: 'pw' });
    await expect(join(h, 'Eve')).rejects.toMatchObject({ code: 'wrong-password' });
    for (const proof of [{ proof: 'an old v2 HMAC proof' }, { share: 'not base64url at all!', tag: 'x' }]) {
      const raw = await rawGuest(h);
      await challenged(raw, 'Eve');
      raw.say('lobby.proof', proof);
      await waitFor(() => raw.last('lobby.rejected') !== undefined, 2000, 'the refusal');
      expect(raw.last('lobby.rejected')!.payload).toMatchObject({
        reason: 'version-mismatch',
        message: expect.stringMatching(/different LAN Party version/),
      });
    }
    // The guest without a password sent no proof; the two garbled ones were each a check (and a try).
    expect(h.stats().passwordChecks).toBe(2);
    expect(h.state.players).toHaveLength(1);
  });

  it('after five wrong passwords an address waits, doubling, and is told how long', async () => {
    const time = new ManualScheduler();
    const h = await host({ password: 'right', clock: time });
    for (let i = 0; i < 5; i++) {
      await expect(join(h, 'Eve', `wrong ${i}`)).rejects.toMatchObject({ code: 'wrong-password' });
    }
    await expect(join(h, 'Eve', 'right')).rejects.toMatchObject({
      code: 'too-many-tries',
      message: 'Too many tries, wait 1 s.',
    });
    time.advance(1000);
    await expect(join(h, 'Eve', 'wrong again')).rejects.toMatchObject({ code: 'wrong-password' });
    await expect(join(h, 'Eve', 'right')).rejects.toMatchObject({ message: 'Too many tries, wait 2 s.' });
    time.advance(2000);
    const guest = await join(h, 'Eve', 'right');
    expect(guest.state.players.map((p) => p.name)).toEqual(['Hana', 'Eve']);
    expect(h.stats().passwordChecks).toBe(7);
    expect(h.stats().rejected['too-many-tries']).toBe(2);
  });
});

describe('the room-wide password budget', () => {
  it('slows guessing from any number of addresses, gives a right password its challenge back, refills in time', async () => {
    const time = new ManualScheduler();
    // No per-address backoff here (a guesser with many addresses, or many ICE origins), a budget of 3 every 1 s.
    const tries = { ...DEFAULT_BACKOFF, freeTries: 1000 };
    const h = await host({
      password: 'right',
      clock: time,
      limits: { tries, passwordBudget: { burst: 3, refillMs: 1000 } },
      // Every connection a source of its own: none of them proved the password before, so no reserve applies.
      sourceOf: (peer) => `source ${peer.id}`,
    });
    await join(h, 'Gus', 'right'); // a right password costs the room nothing
    for (let i = 0; i < 3; i++) {
      await expect(join(h, 'Eve', `wrong ${i}`)).rejects.toMatchObject({ code: 'wrong-password' });
    }
    // The budget is spent: the right password too is told to wait, before any challenge (so no check).
    await expect(join(h, 'Ida', 'right')).rejects.toMatchObject({
      code: 'too-many-tries',
      message: 'Too many tries, wait 1 s.',
    });
    expect(h.stats().passwordChecks).toBe(4);
    time.advance(1000);
    const ida = await join(h, 'Ida', 'right');
    expect(ida.state.players.map((p) => p.name)).toEqual(['Hana', 'Gus', 'Ida']);
  });
});

describe('names in the room', () => {
  it('numbers a guest who takes the host’s name and refuses a name that shows nothing', async () => {
    const h = await host();
    const twin = await join(h, 'Ｈаna'); // fullwidth H, Cyrillic а
    expect(twin.state.players.find((p) => p.id === twin.you)?.name).toBe('Hаna 2');
    const marked = await join(h, 'Alice (Host)');
    expect(marked.state.players.find((p) => p.id === marked.you)?.name).toBe('Alice Host');
    await expect(join(h, '\u200b\u3164')).rejects.toMatchObject({
      code: 'invalid-name',
      message: expect.stringMatching(/visible letters/),
    });
    expect(h.state.players).toHaveLength(3);
  });

  it('normalises the room and host names it is opened with, and refuses invisible ones', async () => {
    const h = await host({ roomName: ' Fri\u202eday\u200b  LAN ', playerName: 'Hana (Host)' });
    expect(h.state.roomName).toBe('Friday LAN');
    expect(h.state.players[0]?.name).toBe('Hana Host');
    await expect(host({ roomName: '\u3164' })).rejects.toThrow(/room name/);
  });
});
