import { RistrettoPoint, ed25519 } from '@noble/curves/ed25519';
import { bytesToNumberLE, equalBytes } from '@noble/curves/utils';
import { hmac } from '@noble/hashes/hmac';
import { sha512 } from '@noble/hashes/sha2';
import { concatBytes, orderedCat, parsePrefixFree, prefixFreeCat, prependLen } from './prefixFree';

/**
 * CPace (draft-irtf-cfrg-cpace), cipher suite CPACE-RISTR255-SHA512: a balanced PAKE. Both sides turn the
 * password-related string (PRS) and the public channel identifier (CI) and session id (sid) into a secret
 * generator, send one ephemeral share each, and get the same intermediate session key (ISK) only when their
 * PRS, CI, sid and view of both messages agree. Group arithmetic and hashes are @noble's (audited); this file
 * only composes them as the draft says, and is checked against the draft's published vectors.
 */

/** A decoded ristretto255 element. */
export type RistrettoElement = InstanceType<typeof RistrettoPoint>;

/** Randomness source, injected so tests are exact; production passes node:crypto's. */
export type RandomBytes = (size: number) => Uint8Array;

/** G.DSI of the ristretto255 group environment. */
export const CPACE_DSI = new TextEncoder().encode('CPaceRistretto255');
/** SHA-512's input block size (H.s_in_bytes), which the generator string's zero padding fills. */
const SHA512_BLOCK = 128;
/** The encoding of the neutral element G.I: 32 zero bytes. */
const IDENTITY = new Uint8Array(32);
const GROUP_ORDER = ed25519.CURVE.n;
const ISK_DSI = concatBytes(CPACE_DSI, new TextEncoder().encode('_ISK'));
const MAC_LABEL = new TextEncoder().encode('CPaceMac');

/** Why a CPace run was aborted (the draft's "MUST abort" cases). */
export class CpaceAbort extends Error {
  override readonly name = 'CpaceAbort';
}

/** prefix_free_cat(DSI, PRS, zero padding to the end of the first hash block, CI, sid). */
export function generatorString(
  dsi: Uint8Array,
  prs: Uint8Array,
  ci: Uint8Array,
  sid: Uint8Array,
  blockBytes = SHA512_BLOCK,
): Uint8Array {
  const zpad = Math.max(0, blockBytes - 1 - prependLen(prs).length - prependLen(dsi).length);
  return prefixFreeCat(dsi, prs, new Uint8Array(zpad), ci, sid);
}

/** G.calculate_generator: ristretto255's element derivation (RFC 9496) of SHA-512 over the generator string. */
export function calculateGenerator(prs: Uint8Array, ci: Uint8Array, sid: Uint8Array): RistrettoElement {
  return RistrettoPoint.hashToCurve(sha512(generatorString(CPACE_DSI, prs, ci, sid)));
}

/** G.sample_scalar: 32 random bytes with the bits above 252 cleared, little-endian (drawn again if zero). */
export function sampleScalar(random: RandomBytes): bigint {
  for (let attempt = 0; attempt < 8; attempt++) {
    const bytes = Uint8Array.from(random(32));
    if (bytes.length !== 32) throw new RangeError('randomBytes(32) must give 32 bytes');
    bytes[31]! &= 0x0f;
    const scalar = bytesToNumberLE(bytes);
    if (scalar !== 0n) return scalar;
  }
  throw new Error('the random source keeps giving zero scalars');
}

/** G.scalar_mult: encode(g^y). */
export function scalarMult(y: bigint, g: RistrettoElement): Uint8Array {
  return g.multiply(reduce(y)).toRawBytes();
}

/** G.scalar_mult_vfy: encode(decode(X)^y), or G.I when X does not decode (the caller aborts on G.I). */
export function scalarMultVfy(y: bigint, encoded: Uint8Array): Uint8Array {
  let point;
  try {
    point = RistrettoPoint.fromHex(encoded);
  } catch {
    return IDENTITY.slice();
  }
  return point.multiply(reduce(y)).toRawBytes();
}

function reduce(y: bigint): bigint {
  const scalar = y % GROUP_ORDER;
  if (scalar === 0n) throw new CpaceAbort('zero scalar');
  return scalar;
}

/** True for the encoding of the neutral element. */
export function isIdentity(encoded: Uint8Array): boolean {
  return equalBytes(encoded, IDENTITY);
}

/** ISK = H(lv_cat(DSI‖"_ISK", sid, K) ‖ transcript); transcript is MSGa‖MSGb or o_cat(MSGa, MSGb). */
export function intermediateSessionKey(sid: Uint8Array, k: Uint8Array, transcript: Uint8Array): Uint8Array {
  return sha512(concatBytes(prefixFreeCat(ISK_DSI, sid, k), transcript));
}

/** The draft's key confirmation: HMAC-SHA512 under H("CPaceMac"‖ISK) over the message its sender sent. */
export function confirmationTag(isk: Uint8Array, sentMessage: Uint8Array): Uint8Array {
  return hmac(sha512, sha512(concatBytes(MAC_LABEL, isk)), sentMessage);
}

/** Who sends first: the initiator's message is MSGa, the responder's MSGb (ordered transcript MSGa‖MSGb). */
export type CpaceRole = 'initiator' | 'responder';

/** What both sides must agree on for the keys to match; `ad` is this side's own public associated data. */
export interface CpaceInputs {
  readonly prs: Uint8Array;
  readonly ci: Uint8Array;
  readonly sid: Uint8Array;
  readonly ad: Uint8Array;
}

/** The outcome of a run once the peer's message arrived. */
export interface CpaceOutcome {
  readonly isk: Uint8Array;
  /** The peer's associated data, as it sent it. */
  readonly peerAd: Uint8Array;
  /** Our key-confirmation tag, for the peer. */
  readonly ownTag: Uint8Array;
  /** Constant-time check of the peer's tag: false means another password, or someone in between. */
  checkPeerTag(tag: Uint8Array): boolean;
}

/** One side of one run: its message to send, and what to do with the peer's. */
export interface CpaceParty {
  readonly message: Uint8Array;
  /** Throws CpaceAbort on a malformed message or a share that gives the neutral element. */
  receive(peerMessage: Uint8Array): CpaceOutcome;
}

/**
 * Starts one side of a CPace run with a fresh ephemeral scalar from `random` (never reuse a party: one
 * `receive` per run). MSG = prefix_free_cat(Y, AD).
 */
export function startCpace(role: CpaceRole, inputs: CpaceInputs, random: RandomBytes): CpaceParty {
  const generator = calculateGenerator(inputs.prs, inputs.ci, inputs.sid);
  const scalar = sampleScalar(random);
  const message = prefixFreeCat(scalarMult(scalar, generator), inputs.ad);
  let used = false;
  return {
    message,
    receive(peerMessage) {
      if (used) throw new CpaceAbort('a CPace party answers one message only');
      used = true;
      const fields = parsePrefixFree(peerMessage, 2);
      if (!fields) throw new CpaceAbort('the peer message is not a valid prefix-free encoding');
      const [share, peerAd] = fields as [Uint8Array, Uint8Array];
      const k = scalarMultVfy(scalar, share);
      if (isIdentity(k)) throw new CpaceAbort('the peer share is invalid or the neutral element');
      const transcript = role === 'initiator' ? concatBytes(message, peerMessage) : concatBytes(peerMessage, message);
      const isk = intermediateSessionKey(inputs.sid, k, transcript);
      const expected = confirmationTag(isk, peerMessage);
      return {
        isk,
        peerAd: Uint8Array.from(peerAd),
        ownTag: confirmationTag(isk, message),
        checkPeerTag: (tag) => tag.length === expected.length && equalBytes(tag, expected),
      };
    },
  };
}

/** The ISK of a run without initiator/responder roles (o_cat transcript), for the draft's symmetric vectors. */
export function parallelIsk(sid: Uint8Array, k: Uint8Array, msgA: Uint8Array, msgB: Uint8Array): Uint8Array {
  return intermediateSessionKey(sid, k, orderedCat(msgA, msgB));
}
