import { randomBytes, scrypt } from 'node:crypto';
import { CpaceAbort, parsePrefixFree, prefixFreeCat, startCpace, type RandomBytes } from '../net/pake/index';
import { PASSWORD_SUITE, type GuestMessage, type HostMessages } from '../../shared/lobby/lobbyMessages';
import type { WireProtocol } from '../net/index';

/**
 * A password room's check, a CPace run (main/net/pake) channel-bound to the connection:
 *
 *   host  → guest  challenge = { salt, sid, share: MSGa }        host: initiator, a fresh scalar per challenge
 *   guest → host   proof     = { share: MSGb, tag: Tb }          the guest proves first
 *   host  → guest  welcome   … { confirm: Ta }                   then the host, so an impostor is caught
 *
 * PRS = scrypt(NFC(password), salt): the host keeps that key, never the password. CI names this connection (its
 * token, on the native path the binding both ends derived from its handshake, the protocol, and what each end
 * itself knows of the native offer, so a v1 link whose offer was stripped on the way fails), sid is the host's fresh
 * nonce, and the ISK hashes both shares. What crosses the wire is the salt, sid, two shares and two tags: with
 * the ephemeral scalars never sent, nobody who only listened can test a guess against them, and a proof made
 * for one connection or challenge checks on no other. An active impostor gets one online guess per join.
 */

/**
 * scrypt cost of a room key: N = 2^14, r = 8 (16 MiB, tens of ms once per join). Since CPace, a sniffed exchange
 * gives no guess to test; the cost is what an offline attack on a stolen room key (the host's memory) pays.
 */
export const ROOM_KEY_COST = { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

/** Bytes of a room key, a salt, a session id and a key-confirmation tag. */
export const EXCHANGE_BYTES = { key: 32, salt: 16, sid: 16, tag: 64 } as const;

/** A password room's secret: the scrypt key (the password itself is not kept) and its salt. */
export interface RoomKey {
  readonly key: Buffer;
  readonly salt: Buffer;
}

/** The connection an exchange is bound to, as both ends see it. */
export interface PasswordChannel {
  /** The transport's 64-bit connection token. */
  readonly token: bigint;
  /** The native handshake's channel binding; undefined on v1 (whose datagrams carry no MAC anyway). */
  readonly binding: Uint8Array | undefined;
  /** The protocol the connection negotiated. */
  readonly protocol: WireProtocol;
  /** Whether the guest offered native, as this end knows it (the guest: its own offer; the host: see hostChannel). */
  readonly nativeOffered: boolean;
}

/** What the host reads of a peer for its channel (a transport Peer satisfies it). */
export interface ChannelPeer {
  readonly token: bigint;
  readonly channelBinding: Uint8Array | undefined;
  readonly protocol: WireProtocol;
  /** Whether its connect request carried a native offer; undefined when this host takes none (never reads them). */
  readonly offeredNative: boolean | undefined;
}

/**
 * The host's channel for a peer. A host that takes native offers knows from the connect itself (a v1 peer made
 * none); one that takes none never looked, and goes by the hello (no offer of its own can have been stripped).
 */
export function hostChannel(peer: ChannelPeer, hello: { readonly native?: boolean | undefined }): PasswordChannel {
  const nativeOffered = peer.offeredNative ?? hello.native === true;
  return { token: peer.token, binding: peer.channelBinding, protocol: peer.protocol, nativeOffered };
}

/** A challenge on the wire (base64url fields, checked by the lobby's schemas). */
export type PasswordChallenge = HostMessages['lobby.challenge'];

/** A guest's answer on the wire (base64url fields, checked by the lobby's schemas). */
export type PasswordProof = GuestMessage<'lobby.proof'>;

const utf8 = (text: string) => new TextEncoder().encode(text);
const HOST_AD = utf8('LAN Party host');
const GUEST_AD = utf8('LAN Party guest');
const PURPOSE = utf8('LAN Party lobby v3: room password');

/** Bytes as unpadded base64url, the lobby's wire form. */
export const toBase64Url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
/** The bytes of unpadded base64url (the schemas check the alphabet and length first). */
export const fromBase64Url = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64url'));

/** The key a password gives for a room's salt: scrypt(NFC(password), salt). Async (runs off the main thread). */
export function deriveRoomKey(password: string, salt: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, EXCHANGE_BYTES.key, ROOM_KEY_COST, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** A fresh salt for a new room, from the OS's CSPRNG. */
export const freshSalt = (): Buffer => randomBytes(EXCHANGE_BYTES.salt);

/** The OS's CSPRNG as CPace's random source. */
export const systemRandom: RandomBytes = (size) => randomBytes(size);

/** CI: the purpose and this connection's names, so a proof made for another connection never checks here. */
function channelIdentifier(channel: PasswordChannel): Uint8Array {
  const token = new Uint8Array(8);
  new DataView(token.buffer).setBigUint64(0, channel.token);
  const offered = Uint8Array.of(channel.nativeOffered ? 1 : 0);
  return prefixFreeCat(PURPOSE, token, channel.binding ?? new Uint8Array(0), utf8(channel.protocol), offered);
}

/** Whether a CPace message's associated data is `expected` (a host's message never passes as a guest's). */
function adIs(message: Uint8Array, expected: Uint8Array): boolean {
  const fields = parsePrefixFree(message, 2);
  return fields !== undefined && Buffer.from(fields[1]!).equals(Buffer.from(expected));
}

/** Why a proof did not admit: not a proof of this design at all, or one that does not check (another password). */
export type ProofVerdict = { ok: true; confirm: string; isk: string } | { ok: false; reason: 'malformed' | 'mismatch' };

/** The host's half of one exchange: the challenge to send, then one check of the answer. */
export interface HostPasswordCheck {
  readonly challenge: PasswordChallenge;
  /** Checks the proof (once: a second call is refused); on success, the host's own confirmation for the welcome. */
  check(proof: PasswordProof): ProofVerdict;
}

/** Starts the host's half with a fresh sid and a fresh CPace scalar. */
export function startHostCheck(room: RoomKey, channel: PasswordChannel, random: RandomBytes): HostPasswordCheck {
  const sid = Uint8Array.from(random(EXCHANGE_BYTES.sid));
  const party = startCpace('initiator', { prs: room.key, ci: channelIdentifier(channel), sid, ad: HOST_AD }, random);
  let spent = false;
  return {
    challenge: {
      suite: PASSWORD_SUITE,
      salt: toBase64Url(room.salt),
      sid: toBase64Url(sid),
      share: toBase64Url(party.message),
    },
    check(proof) {
      if (spent) return { ok: false, reason: 'mismatch' };
      spent = true;
      const share = fromBase64Url(proof.share);
      const tag = fromBase64Url(proof.tag);
      if (tag.length !== EXCHANGE_BYTES.tag || !adIs(share, GUEST_AD)) return { ok: false, reason: 'malformed' };
      try {
        const outcome = party.receive(share);
        return outcome.checkPeerTag(tag)
          ? { ok: true, confirm: toBase64Url(outcome.ownTag), isk: Buffer.from(outcome.isk).toString('hex') }
          : { ok: false, reason: 'mismatch' };
      } catch (error) {
        if (error instanceof CpaceAbort) return { ok: false, reason: 'malformed' };
        throw error;
      }
    },
  };
}

/** Why a guest could not answer a challenge: it does not parse as a LAN Party host's. */
export class ChallengeError extends Error {
  override readonly name = 'ChallengeError';
}

/** The guest's half once it answered: the proof to send, then the check of the host's confirmation. */
export interface GuestPasswordAnswer {
  readonly proof: PasswordProof;
  /** Whether the welcome's confirmation proves the host knew the password too (constant time). */
  hostConfirmed(confirm: string | undefined): boolean;
  /** The exchange's session key (hex): the seat's resume key is rooted in it (resumeProof.ts). */
  readonly isk: string;
}

/**
 * Answers a challenge with a fresh CPace scalar: derives the room key from the password and the host's salt,
 * and proves it. Rejects with a ChallengeError for a challenge whose share is not a LAN Party host's.
 */
export async function answerChallenge(
  password: string,
  challenge: PasswordChallenge,
  channel: PasswordChannel,
  random: RandomBytes,
): Promise<GuestPasswordAnswer> {
  const hostShare = fromBase64Url(challenge.share);
  if (!adIs(hostShare, HOST_AD)) throw new ChallengeError("the challenge's share is not a LAN Party host's");
  const prs = await deriveRoomKey(password, fromBase64Url(challenge.salt));
  const sid = fromBase64Url(challenge.sid);
  const party = startCpace('responder', { prs, ci: channelIdentifier(channel), sid, ad: GUEST_AD }, random);
  let outcome;
  try {
    outcome = party.receive(hostShare);
  } catch (error) {
    if (error instanceof CpaceAbort) throw new ChallengeError(`the challenge's share is invalid: ${error.message}`);
    throw error;
  }
  const { checkPeerTag, ownTag } = outcome;
  return {
    proof: { share: toBase64Url(party.message), tag: toBase64Url(ownTag) },
    hostConfirmed: (confirm) => confirm !== undefined && checkPeerTag(fromBase64Url(confirm)),
    isk: Buffer.from(outcome.isk).toString('hex'),
  };
}
