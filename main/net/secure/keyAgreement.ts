import { hkdfSync } from 'node:crypto';
import { CpaceAbort, startCpace, type RandomBytes } from '../pake/cpace';
import { parsePrefixFree, prefixFreeCat } from '../pake/prefixFree';

/**
 * The password-authenticated key agreement of one join (CPace, see cpace.ts): the guest speaks first.
 *
 *   guest → host   offer   = lv_cat(sid, MSGa)          sid = the guest's fresh nonce
 *   host  → guest  answer  = lv_cat(MSGb, Tb)           MSGb's AD holds the host's fresh nonce
 *   guest → host   confirm = Ta
 *
 * MSGb's AD holds the host's nonce; CI holds the purpose and the room (or, on the LAN, the connection). So the
 * ISK hashes the room, both nonces and both shares, and both sides draw a fresh scalar every run: a replayed
 * offer meets a new host scalar and nonce and yields a new key. A party in the middle without the secret gets
 * one online guess per run (its tag fails) and nothing to test guesses against offline. The ICE parameters
 * travel only after confirmation, sealed under the signal keys; the datagram keys are derived from the ISK
 * and both ICE username fragments, so they belong to that one ICE session.
 */

/** What both ends must hold alike: the secret (PRS) and the public channel binding (CI). */
export interface AgreementContext {
  /** The password-related string: the code's secret part, and the room password when there is one. */
  readonly secret: Uint8Array;
  /** What the run is bound to, e.g. `['internet-join', roomId]` or the LAN connection's identifiers. */
  readonly channel: readonly string[];
}

/** The two datagram keys of one path. */
export interface SessionKeys {
  readonly hostToGuest: Buffer;
  readonly guestToHost: Buffer;
}

/** What a confirmed run gives: signalling keys each way, and the datagram keys of one ICE session. */
export interface AgreedKeys {
  readonly signalHostToGuest: Buffer;
  readonly signalGuestToHost: Buffer;
  /** The datagram keys, bound to both ends' ICE username fragments (or other per-path labels). */
  datagramKeys(hostUfrag: string, guestUfrag: string): SessionKeys;
}

/** Why an agreement failed: a message that does not parse, or keys that do not confirm (wrong secret or MITM). */
export class KeyAgreementError extends Error {
  override readonly name = 'KeyAgreementError';
  constructor(
    readonly reason: 'malformed' | 'mismatch',
    message: string,
  ) {
    super(message);
  }
}

/** The guest's half: the offer to send, then the host's answer to check. */
export interface GuestAgreement {
  readonly offer: Uint8Array;
  /** Checks the host's confirmation; throws KeyAgreementError('mismatch') when it fails. */
  finish(answer: Uint8Array): { keys: AgreedKeys; confirm: Uint8Array };
}

/** The host's half for one offer: the answer to send, then the guest's confirmation to check. */
export interface HostAgreement {
  readonly answer: Uint8Array;
  /** The keys, once `confirm` accepted the guest's tag; until then nothing may be sent under them. */
  confirm(confirmation: Uint8Array): AgreedKeys | undefined;
}

const GUEST_LABEL = 'lan-party guest v1';
const HOST_LABEL = 'lan-party host v1';
const KEY_INFO = 'lan-party session keys v2';
const NONCE_BYTES = 16;
const TAG_BYTES = 64;

const utf8 = (text: string) => new TextEncoder().encode(text);

function channelBinding(channel: readonly string[]): Uint8Array {
  return prefixFreeCat(utf8('lan-party cpace channel'), ...channel.map(utf8));
}

const sameBytes = (bytes: Uint8Array, text: string) => Buffer.from(bytes).equals(Buffer.from(text, 'utf8'));

/** Starts the guest's side with a fresh nonce (the sid) and a fresh CPace scalar from `random`. */
export function startGuestAgreement(context: AgreementContext, random: RandomBytes): GuestAgreement {
  const sid = Uint8Array.from(random(NONCE_BYTES));
  const ci = channelBinding(context.channel);
  const party = startCpace('initiator', { prs: context.secret, ci, sid, ad: utf8(GUEST_LABEL) }, random);
  return {
    offer: prefixFreeCat(sid, party.message),
    finish(answer) {
      const fields = parsePrefixFree(answer, 2);
      if (!fields) throw new KeyAgreementError('malformed', 'the answer is not lv_cat(MSGb, Tb)');
      const [msgB, hostTag] = fields as [Uint8Array, Uint8Array];
      const outcome = runCpace(() => party.receive(msgB));
      if (!outcome.checkPeerTag(hostTag)) {
        throw new KeyAgreementError('mismatch', "the host's key confirmation failed");
      }
      const ad = parsePrefixFree(outcome.peerAd, 2);
      if (!ad || !sameBytes(ad[0]!, HOST_LABEL) || ad[1]!.length !== NONCE_BYTES) {
        throw new KeyAgreementError('malformed', "the host's associated data is not a LAN Party host's");
      }
      return { keys: agreedKeys(outcome.isk), confirm: outcome.ownTag };
    },
  };
}

/**
 * Answers one guest offer with a fresh nonce and scalar: throws KeyAgreementError('malformed') for an offer
 * that does not parse or carries an invalid share. The keys are released only by a confirmation that checks.
 */
export function answerGuestAgreement(context: AgreementContext, offer: Uint8Array, random: RandomBytes): HostAgreement {
  const fields = parsePrefixFree(offer, 2);
  if (!fields || fields[0]!.length !== NONCE_BYTES)
    throw new KeyAgreementError('malformed', 'the offer is not lv_cat(sid, MSGa)');
  const [sid, msgA] = fields as [Uint8Array, Uint8Array];
  const msgAFields = parsePrefixFree(msgA, 2);
  if (!msgAFields || !sameBytes(msgAFields[1]!, GUEST_LABEL)) {
    throw new KeyAgreementError('malformed', "the offer's associated data is not a LAN Party guest's");
  }
  const nonce = Uint8Array.from(random(NONCE_BYTES));
  const party = startCpace(
    'responder',
    {
      prs: context.secret,
      ci: channelBinding(context.channel),
      sid,
      ad: prefixFreeCat(utf8(HOST_LABEL), nonce),
    },
    random,
  );
  const outcome = runCpace(() => party.receive(msgA));
  let spent = false;
  return {
    answer: prefixFreeCat(party.message, outcome.ownTag),
    confirm(confirmation) {
      // One check per run: a second try with another tag is a second guess, refused.
      if (spent) return undefined;
      spent = true;
      return confirmation.length === TAG_BYTES && outcome.checkPeerTag(confirmation)
        ? agreedKeys(outcome.isk)
        : undefined;
    },
  };
}

function runCpace<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof CpaceAbort) throw new KeyAgreementError('malformed', error.message);
    throw error;
  }
}

const hkdf = (isk: Uint8Array, info: Uint8Array) =>
  Buffer.from(hkdfSync('sha256', isk, Buffer.alloc(0), Buffer.from(info), 64));

/** HKDF-SHA256 from the ISK: the signalling keys, and the datagram keys for a pair of ICE ufrags. */
export function agreedKeys(isk: Uint8Array): AgreedKeys {
  const signal = hkdf(isk, prefixFreeCat(utf8(KEY_INFO), utf8('signal')));
  return {
    signalHostToGuest: signal.subarray(0, 32),
    signalGuestToHost: signal.subarray(32, 64),
    datagramKeys(hostUfrag, guestUfrag) {
      const okm = hkdf(isk, prefixFreeCat(utf8(KEY_INFO), utf8('datagrams'), utf8(hostUfrag), utf8(guestUfrag)));
      return { hostToGuest: okm.subarray(0, 32), guestToHost: okm.subarray(32, 64) };
    },
  };
}
