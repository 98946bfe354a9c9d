import { hkdfSync } from 'node:crypto';
import { CpaceAbort, startCpace, type RandomBytes } from './cpace';
import { parsePrefixFree, prefixFreeCat } from './prefixFree';

/**
 * The password-authenticated key agreement of one join (CPace, see cpace.ts): the guest speaks first.
 *
 *   guest → host   offer   = lv_cat(sid, MSGa)          sid = the guest's fresh nonce
 *   host  → guest  answer  = lv_cat(MSGb, Tb)           MSGb's AD holds the host's fresh nonce
 *   guest → host   confirm = Ta
 *
 * MSGa's AD holds the guest's ICE username fragment, MSGb's the host's and the host's nonce; CI holds the
 * purpose and the room (or, on the LAN, the connection). So the ISK hashes the room, both ufrags, both nonces
 * and both shares, and both sides draw a fresh scalar every run: a replayed offer meets a new host scalar and
 * nonce and yields a new key. A party in the middle without the secret gets one online guess per run (its
 * tag fails) and nothing to test guesses against offline.
 */

/** What both ends must hold alike: the secret (PRS) and the public channel binding (CI). */
export interface AgreementContext {
  /** The password-related string: the code's secret part, and the room password when there is one. */
  readonly secret: Uint8Array;
  /** What the run is bound to, e.g. `['internet-join', roomId]` or the LAN connection's identifiers. */
  readonly channel: readonly string[];
  /** This side's ICE username fragment (or another per-connection label both sides learn). */
  readonly ufrag: string;
}

/** Keys of one joined path: datagrams each way, and the signalling (ICE parameters) each way. */
export interface SessionKeys {
  readonly hostToGuest: Buffer;
  readonly guestToHost: Buffer;
  readonly signalHostToGuest: Buffer;
  readonly signalGuestToHost: Buffer;
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
  finish(answer: Uint8Array): { keys: SessionKeys; peerUfrag: string; confirm: Uint8Array };
}

/** The host's half for one offer: the answer to send, then the guest's confirmation to check. */
export interface HostAgreement {
  readonly answer: Uint8Array;
  readonly peerUfrag: string;
  /** The keys, once `confirm` accepted the guest's tag; until then nothing may be sent under them. */
  confirm(confirmation: Uint8Array): SessionKeys | undefined;
}

const GUEST_LABEL = 'lan-party guest v1';
const HOST_LABEL = 'lan-party host v1';
const KEY_INFO = 'lan-party session keys v2';
const NONCE_BYTES = 16;
/** Longest label a peer may put in its AD (ICE ufrags are at most 256 characters). */
const MAX_LABEL_BYTES = 256;
const TAG_BYTES = 64;

const utf8 = (text: string) => new TextEncoder().encode(text);

function channelBinding(channel: readonly string[]): Uint8Array {
  return prefixFreeCat(utf8('lan-party cpace channel'), ...channel.map(utf8));
}

function readLabel(bytes: Uint8Array): string {
  if (bytes.length === 0 || bytes.length > MAX_LABEL_BYTES) throw new KeyAgreementError('malformed', 'bad ufrag');
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** Starts the guest's side with a fresh nonce (the sid) and a fresh CPace scalar from `random`. */
export function startGuestAgreement(context: AgreementContext, random: RandomBytes): GuestAgreement {
  const sid = Uint8Array.from(random(NONCE_BYTES));
  const ci = channelBinding(context.channel);
  const party = startCpace(
    'initiator',
    { prs: context.secret, ci, sid, ad: prefixFreeCat(utf8(GUEST_LABEL), utf8(context.ufrag)) },
    random,
  );
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
      const ad = parsePrefixFree(outcome.peerAd, 3);
      if (!ad || readLabel(ad[0]!) !== HOST_LABEL || ad[2]!.length !== NONCE_BYTES) {
        throw new KeyAgreementError('malformed', "the host's associated data is not a LAN Party host's");
      }
      return { keys: sessionKeys(outcome.isk), peerUfrag: readLabel(ad[1]!), confirm: outcome.ownTag };
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
  const guestAd = msgAFields && parsePrefixFree(msgAFields[1]!, 2);
  if (!guestAd || readLabel(guestAd[0]!) !== GUEST_LABEL) {
    throw new KeyAgreementError('malformed', "the offer's associated data is not a LAN Party guest's");
  }
  const peerUfrag = readLabel(guestAd[1]!);
  const nonce = Uint8Array.from(random(NONCE_BYTES));
  const party = startCpace(
    'responder',
    {
      prs: context.secret,
      ci: channelBinding(context.channel),
      sid,
      ad: prefixFreeCat(utf8(HOST_LABEL), utf8(context.ufrag), nonce),
    },
    random,
  );
  const outcome = runCpace(() => party.receive(msgA));
  let spent = false;
  return {
    answer: prefixFreeCat(party.message, outcome.ownTag),
    peerUfrag,
    confirm(confirmation) {
      // One check per run: a second try with another tag is a second guess, refused.
      if (spent) return undefined;
      spent = true;
      return confirmation.length === TAG_BYTES && outcome.checkPeerTag(confirmation)
        ? sessionKeys(outcome.isk)
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

/** HKDF-SHA256 from the ISK into the four keys of {@link SessionKeys}. */
export function sessionKeys(isk: Uint8Array): SessionKeys {
  const okm = Buffer.from(hkdfSync('sha256', isk, Buffer.alloc(0), KEY_INFO, 128));
  return {
    hostToGuest: okm.subarray(0, 32),
    guestToHost: okm.subarray(32, 64),
    signalHostToGuest: okm.subarray(64, 96),
    signalGuestToHost: okm.subarray(96, 128),
  };
}
