import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  answerGuestAgreement,
  KeyAgreementError,
  startGuestAgreement,
  type AgreementContext,
} from '../../../../main/net/secure';
import { prefixFreeCat } from '../../../../main/net/pake/prefixFree';

const random = (size: number) => new Uint8Array(randomBytes(size));
const secret = new TextEncoder().encode('K7Q2-M9XD');
const guestSide: AgreementContext = { secret, channel: ['internet-join', 'ABC123'] };
const hostSide: AgreementContext = { secret, channel: ['internet-join', 'ABC123'] };
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
/** How many replays the replay test makes: LP_REPLAY_COUNT=100000 for the full run (~25 ms of CPU each on the 2-core machine). */
const REPLAYS = Number(process.env.LP_REPLAY_COUNT ?? 250);

function expectError(run: () => unknown, reason: KeyAgreementError['reason']): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(KeyAgreementError);
    expect((error as KeyAgreementError).reason).toBe(reason);
    return;
  }
  throw new Error('expected a KeyAgreementError');
}

describe('the CPace join agreement', () => {
  it('gives both ends the same keys, the datagram keys bound to both ufrags, the host keys on confirmation', () => {
    const guest = startGuestAgreement(guestSide, random);
    const host = answerGuestAgreement(hostSide, guest.offer, random);
    const done = guest.finish(host.answer);
    const hostKeys = host.confirm(done.confirm);
    expect(hostKeys).toBeDefined();
    expect(hex(hostKeys!.signalGuestToHost)).toBe(hex(done.keys.signalGuestToHost));
    expect(hex(hostKeys!.signalHostToGuest)).toBe(hex(done.keys.signalHostToGuest));
    const atHost = hostKeys!.datagramKeys('hUfr', 'gUfr');
    const atGuest = done.keys.datagramKeys('hUfr', 'gUfr');
    expect([hex(atHost.hostToGuest), hex(atHost.guestToHost)]).toEqual([
      hex(atGuest.hostToGuest),
      hex(atGuest.guestToHost),
    ]);
    // Another ICE session (another ufrag) gets other datagram keys; all keys differ from each other.
    expect(hex(done.keys.datagramKeys('hUfr', 'gUfX').hostToGuest)).not.toBe(hex(atGuest.hostToGuest));
    const all = [atGuest.hostToGuest, atGuest.guestToHost, done.keys.signalHostToGuest, done.keys.signalGuestToHost];
    expect(new Set(all.map(hex)).size).toBe(4);
  });

  it('another secret, another room or a swapped share: the guest sees a mismatch, the host a failed confirmation', () => {
    for (const other of [
      { ...hostSide, secret: new TextEncoder().encode('K7Q2-M9XE') },
      { ...hostSide, channel: ['internet-join', 'ABC124'] },
    ]) {
      const guest = startGuestAgreement(guestSide, random);
      const host = answerGuestAgreement(other, guest.offer, random);
      expectError(() => guest.finish(host.answer), 'mismatch');
    }
    // A middle party without the secret answers the guest itself and relays its own offer to the host.
    const guest = startGuestAgreement(guestSide, random);
    const middle = { ...hostSide, secret: new TextEncoder().encode('guess') };
    const fake = answerGuestAgreement(middle, guest.offer, random);
    expectError(() => guest.finish(fake.answer), 'mismatch');
    const towardHost = startGuestAgreement({ ...guestSide, secret: middle.secret }, random);
    const host = answerGuestAgreement(hostSide, towardHost.offer, random);
    expectError(() => towardHost.finish(host.answer), 'mismatch');
    expect(host.confirm(new Uint8Array(64))).toBeUndefined();
  });

  it('the host checks one confirmation per run: no second guess', () => {
    const guest = startGuestAgreement(guestSide, random);
    const host = answerGuestAgreement(hostSide, guest.offer, random);
    const { confirm } = guest.finish(host.answer);
    expect(host.confirm(confirm.map((b) => b ^ 1))).toBeUndefined();
    expect(host.confirm(confirm)).toBeUndefined();
  });

  it('refuses malformed offers and answers with a clear error, never a crash', () => {
    const guest = startGuestAgreement(guestSide, random);
    for (const offer of [
      new Uint8Array(0),
      random(80),
      guest.offer.subarray(0, guest.offer.length - 1),
      prefixFreeCat(
        random(16),
        prefixFreeCat(
          new Uint8Array(32),
          prefixFreeCat(new TextEncoder().encode('lan-party guest v1'), new TextEncoder().encode('u')),
        ),
      ),
    ]) {
      expectError(() => answerGuestAgreement(hostSide, offer, random), 'malformed');
    }
    expectError(() => guest.finish(random(100)), 'malformed');
  });

  it(`a replayed offer (the same bytes ${REPLAYS} times) never yields a key seen before, nor keys for the replayer`, () => {
    // The guest's draws (nonce, scalar) are fixed, so every run below sends exactly the same offer bytes and
    // the test, holding that scalar, can read the key each replay gives the host.
    const draws = random(16 + 32);
    const fixed = () => {
      let at = 0;
      return (size: number) => draws.slice(at, (at += size));
    };
    const original = startGuestAgreement(guestSide, fixed());
    const seen = new Set<string>();
    let replayerGotKeys = 0;
    let originalConfirm: Uint8Array | undefined;
    for (let i = 0; i <= REPLAYS; i++) {
      const guest = startGuestAgreement(guestSide, fixed());
      expect(hex(guest.offer)).toBe(hex(original.offer));
      const host = answerGuestAgreement(hostSide, guest.offer, random);
      const { keys, confirm } = guest.finish(host.answer);
      if (originalConfirm && i <= 20) {
        // A replayer holds only the first run's confirmation: it releases no keys on a replayed run (checked on
        // the first 20, the rest of the loop is about key freshness).
        const replayed = answerGuestAgreement(hostSide, guest.offer, random);
        if (replayed.confirm(originalConfirm)) replayerGotKeys += 1;
      }
      originalConfirm ??= confirm;
      const hostKeys = host.confirm(confirm);
      const path = keys.datagramKeys('hUfr', 'gUfr');
      expect(hostKeys && hex(hostKeys.datagramKeys('hUfr', 'gUfr').hostToGuest)).toBe(hex(path.hostToGuest));
      for (const key of [path.hostToGuest, path.guestToHost]) {
        expect(seen.has(hex(key))).toBe(false);
        seen.add(hex(key));
      }
    }
    expect(replayerGotKeys).toBe(0);
    expect(seen.size).toBe(2 * (REPLAYS + 1));
  }, 3_600_000);

  it('a sniffed exchange gives nothing to test a guess against: even the real secret cannot confirm it', () => {
    const guest = startGuestAgreement(guestSide, random);
    const host = answerGuestAgreement(hostSide, guest.offer, random);
    const captured = { offer: guest.offer, answer: host.answer, confirm: guest.finish(host.answer).confirm };
    // The eavesdropper knows the real secret and replays the guest's side: without the guest's scalar its
    // key differs, so the captured host tag does not check and the captured guest tag is not its own.
    const attempt = startGuestAgreement(guestSide, random);
    expectError(() => attempt.finish(captured.answer), 'mismatch');
    const asHost = answerGuestAgreement(hostSide, captured.offer, random);
    expect(asHost.confirm(captured.confirm)).toBeUndefined();
  });
});
