import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ChallengeError,
  EXCHANGE_BYTES,
  answerChallenge,
  deriveRoomKey,
  freshSalt,
  fromBase64Url,
  startHostCheck,
  systemRandom,
  toBase64Url,
  type PasswordChannel,
  type RoomKey,
} from '../../../main/lobby/passwordExchange';
import { guestMessageSchemas, hostMessageSchemas } from '../../../shared/lobby/lobbyMessages';

const roomKey = async (password: string, salt = freshSalt()): Promise<RoomKey> => ({
  key: await deriveRoomKey(password, salt),
  salt,
});
const channel = (token = 0x1122334455667788n, binding: Uint8Array | undefined = randomBytes(32)): PasswordChannel => ({
  token,
  binding,
  protocol: binding ? 'native' : 'v1',
  nativeOffered: binding !== undefined,
});

describe('the CPace password exchange of a LAN room', () => {
  it('admits the right password and both sides confirm each other; every field fits the lobby schemas', async () => {
    const room = await roomKey('open sesame');
    const link = channel();
    const host = startHostCheck(room, link, systemRandom);
    expect(hostMessageSchemas['lobby.challenge'].safeParse(host.challenge).success).toBe(true);
    const guest = await answerChallenge('open sesame', host.challenge, link, systemRandom);
    expect(guestMessageSchemas['lobby.proof'].safeParse(guest.proof).success).toBe(true);
    const verdict = host.check(guest.proof);
    expect(verdict.ok).toBe(true);
    if (!verdict.ok) return;
    expect(fromBase64Url(verdict.confirm)).toHaveLength(EXCHANGE_BYTES.tag);
    expect(guest.hostConfirmed(verdict.confirm)).toBe(true);
    // The password itself never travels, in any form of it.
    const wire = JSON.stringify([host.challenge, guest.proof, verdict]);
    expect(wire).not.toContain('open sesame');
    expect(wire).not.toContain(toBase64Url(room.key));
  });

  it('refuses a wrong password, and a host check is spent after one proof', async () => {
    const room = await roomKey('right');
    const link = channel();
    const host = startHostCheck(room, link, systemRandom);
    const wrong = await answerChallenge('wrong', host.challenge, link, systemRandom);
    expect(host.check(wrong.proof)).toEqual({ ok: false, reason: 'mismatch' });
    // The right answer after a wrong one gets no second go on the same challenge.
    const right = await answerChallenge('right', host.challenge, link, systemRandom);
    expect(host.check(right.proof)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('refuses a replayed proof: each challenge has a fresh sid and scalar', async () => {
    const room = await roomKey('pw');
    const link = channel();
    const first = startHostCheck(room, link, systemRandom);
    const proof = (await answerChallenge('pw', first.challenge, link, systemRandom)).proof;
    expect(first.check(proof).ok).toBe(true);
    const second = startHostCheck(room, link, systemRandom);
    expect(second.challenge.sid).not.toBe(first.challenge.sid);
    expect(second.challenge.share).not.toBe(first.challenge.share);
    expect(second.challenge.salt).toBe(first.challenge.salt);
    expect(second.check(proof)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('refuses a proof made for another connection (another token or another native binding)', async () => {
    const room = await roomKey('pw');
    const binding = randomBytes(32);
    for (const elsewhere of [channel(1n, binding), channel(2n, randomBytes(32)), channel(2n, undefined)]) {
      const host = startHostCheck(room, channel(2n, binding), systemRandom);
      // The relay: the real room's challenge, answered by a victim on its own connection to the relayer.
      const relayed = await answerChallenge('pw', host.challenge, elsewhere, systemRandom);
      expect(host.check(relayed.proof)).toEqual({ ok: false, reason: 'mismatch' });
    }
  });

  it('binds the protocol and each side’s own knowledge of the native offer: a stripped offer mismatches', async () => {
    const room = await roomKey('pw');
    // A man in the middle stripped the guest's native offer: both ends are on v1 with the same token, but the
    // guest knows it offered native and the host (which takes native offers) knows the connect carried none.
    const hostSees: PasswordChannel = { token: 7n, binding: undefined, protocol: 'v1', nativeOffered: false };
    const guestSees: PasswordChannel = { ...hostSees, nativeOffered: true };
    const host = startHostCheck(room, hostSees, systemRandom);
    const relayed = await answerChallenge('pw', host.challenge, guestSees, systemRandom);
    expect(host.check(relayed.proof)).toEqual({ ok: false, reason: 'mismatch' });
    // The protocol is bound too, and the control: the same facts on both ends check.
    const onNative = startHostCheck(room, { ...hostSees, protocol: 'native' }, systemRandom);
    expect(onNative.check((await answerChallenge('pw', onNative.challenge, hostSees, systemRandom)).proof).ok).toBe(
      false,
    );
    const honest = startHostCheck(room, hostSees, systemRandom);
    expect(honest.check((await answerChallenge('pw', honest.challenge, hostSees, systemRandom)).proof).ok).toBe(true);
  });

  it('lets the guest catch a host that does not know the password', async () => {
    const salt = freshSalt();
    const impostor = startHostCheck(await roomKey('a guess', salt), channel(5n, undefined), systemRandom);
    const guest = await answerChallenge('the real one', impostor.challenge, channel(5n, undefined), systemRandom);
    // The impostor's check fails (one online guess spent), and no confirmation it can make passes the guest's check.
    expect(impostor.check(guest.proof)).toEqual({ ok: false, reason: 'mismatch' });
    expect(guest.hostConfirmed(undefined)).toBe(false);
    expect(guest.hostConfirmed(toBase64Url(randomBytes(64)))).toBe(false);
    expect(guest.hostConfirmed(guest.proof.tag)).toBe(false); // its own tag reflected back
    expect(guest.hostConfirmed('')).toBe(false);
  });

  it('refuses malformed messages with a verdict or a ChallengeError, never a crash', async () => {
    const room = await roomKey('pw');
    const link = channel();
    const check = () => startHostCheck(room, link, systemRandom);
    const good = await answerChallenge('pw', check().challenge, link, systemRandom);
    const reflected = check();
    // The host's own share sent back as the guest's: not a guest's message.
    expect(reflected.check({ share: reflected.challenge.share, tag: good.proof.tag })).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(check().check({ share: toBase64Url(randomBytes(49)), tag: good.proof.tag }).ok).toBe(false);
    expect(check().check({ share: good.proof.share, tag: toBase64Url(randomBytes(12)) })).toEqual({
      ok: false,
      reason: 'malformed',
    });
    // A well-framed guest message whose share is not a ristretto255 element (all ones) aborts the run.
    const badPoint = Buffer.from(fromBase64Url(good.proof.share));
    badPoint.fill(0xff, 1, 33);
    expect(check().check({ share: toBase64Url(badPoint), tag: good.proof.tag })).toEqual({
      ok: false,
      reason: 'malformed',
    });
    const challenge = check().challenge;
    await expect(answerChallenge('pw', { ...challenge, share: good.proof.share }, link, systemRandom)).rejects.toThrow(
      ChallengeError,
    );
    const hostPoint = Buffer.from(fromBase64Url(challenge.share));
    hostPoint.fill(0, 1, 33); // the neutral element
    await expect(
      answerChallenge('pw', { ...challenge, share: toBase64Url(hostPoint) }, link, systemRandom),
    ).rejects.toThrow(ChallengeError);
  });

  it('treats the same password typed in another Unicode form as the same', async () => {
    const room = await roomKey('Zoë');
    const link = channel();
    const host = startHostCheck(room, link, systemRandom);
    const guest = await answerChallenge('Zoe\u0308', host.challenge, link, systemRandom);
    expect(host.check(guest.proof).ok).toBe(true);
  });
});
