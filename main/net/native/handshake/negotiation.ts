import { compactJsonSerializer, type Serializer } from '../../v1/serialization';
import { Wire } from '../../v1/protocol';
import { decodeCookie, encodeCookie } from './connectCookie';
import { Native } from '../wire/nativeWire';
import { decodePublicKey, encodePublicKey } from '../protection/nativeKeys';

/** The native protocol's settings (used only when both ends are ours). */
export interface NativeOptions {
  /** Body codec on native connections, e.g. a binarySerializer; offered by name. Default: compact JSON. */
  serializer?: Serializer;
  /** Largest datagram, bytes (576–1472). Default 1200: safe on every IPv4 path. */
  mtu?: number;
  /** Largest reliable message, bytes; larger ones are split into fragments. Default 4 MiB. */
  maxMessageSize?: number;
  /** Bytes of partial (fragmented) messages held per peer and channel. Default 8 MiB. */
  reassemblyBytes?: number;
}

/** {@link NativeOptions} with defaults filled in. */
export type ResolvedNativeOptions = Required<NativeOptions>;

/** What a client offers, and what a server accepts: the native protocol's parameters. */
export interface NativeParams {
  version: number;
  /** Largest datagram, bytes. */
  mtu: number;
  /** Name of the body codec. */
  codec: string;
  /** Largest reliable message either side will send, bytes: each offers its own, the smaller wins. */
  maxMessage: number;
  /** Bytes of reliable units the other side may have unacknowledged towards the sender of these params. */
  recvWindow: number;
  /** The sender's X25519 public key (32 bytes) for this connection: both derive the packet keys from it. */
  key: Uint8Array;
}

/** A client's offer, with the cookie from a challenge once it has one. */
export interface NativeOffer extends NativeParams {
  cookie?: Uint8Array;
}

/** The codec name both ends always understand: JSON (compact out, any JSON in). */
export const FALLBACK_CODEC = 'json';
const MAX_CODEC_NAME = 64;
/** Largest message limit either side may offer (1 GiB): beyond it, the fragment count would not fit its bounds. */
export const MAX_MESSAGE = 2 ** 30;
/** Largest receive window either side may advertise (1 GiB). */
export const MAX_RECV_WINDOW = 2 ** 30;

/**
 * The connect-request payload carrying an offer, padded so the request is at least
 * {@link Native.MIN_OFFER_DATAGRAM} bytes once serialized (no reply may outgrow it).
 */
export function offerPayload(offer: NativeOffer, serializer: Serializer, type: string): Record<string, unknown> {
  const native: Record<string, unknown> = {
    version: offer.version,
    mtu: offer.mtu,
    codec: offer.codec,
    maxMessage: offer.maxMessage,
    recvWindow: offer.recvWindow,
    key: encodePublicKey(offer.key),
  };
  if (offer.cookie) native.cookie = encodeCookie(offer.cookie);
  const bare = serializer.serialize(type, { native, pad: '' }).byteLength + Wire.HEADER_SIZE;
  return { native, pad: '.'.repeat(Math.max(0, Native.MIN_OFFER_DATAGRAM - bare)) };
}

/** Reads an offer from a connect request's payload; undefined when there is none or it is malformed. */
export function parseOffer(payload: Record<string, unknown>): NativeOffer | undefined {
  const params = parseParams(payload.native);
  if (!params) return undefined;
  const raw = (payload.native as Record<string, unknown>).cookie;
  if (raw === undefined) return params;
  const cookie = decodeCookie(raw);
  return cookie ? { ...params, cookie } : undefined;
}

/**
 * Reads accepted parameters from a connect-accepted payload: undefined means the server speaks only v1 (no
 * `native` field); 'outdated' that it accepted natively but in an older version (no key), which this side cannot
 * speak.
 */
export function parseAccepted(payload: Record<string, unknown>): NativeParams | 'outdated' | undefined {
  if (payload.native === undefined) return undefined;
  return parseParams(payload.native) ?? 'outdated';
}

/** The accept's `native` field: the agreed parameters with our public key. */
export function acceptedPayload(params: NativeParams): Record<string, unknown> {
  return {
    version: params.version,
    mtu: params.mtu,
    codec: params.codec,
    maxMessage: params.maxMessage,
    recvWindow: params.recvWindow,
    key: encodePublicKey(params.key),
  };
}

/**
 * What the server accepts of an offer: our version, the smaller MTU and message limit, the offered codec
 * if it is ours, our own receive window (each direction is paced by its receiver's window) and our public key.
 */
export function acceptOffer(
  offer: NativeParams,
  ours: { mtu: number; serializer: Serializer; maxMessageSize: number; recvWindow: number; key: Uint8Array },
): NativeParams {
  return {
    key: ours.key,
    version: Native.VERSION,
    mtu: Math.min(offer.mtu, ours.mtu),
    codec: ours.serializer.name === offer.codec ? offer.codec : FALLBACK_CODEC,
    maxMessage: Math.min(offer.maxMessage, ours.maxMessageSize),
    recvWindow: ours.recvWindow,
  };
}

/**
 * The receive window to advertise for a socket whose OS granted `recvBuffer` bytes: a quarter of it.
 * Linux reports twice what it stores and charges ~1.1 KB of bookkeeping per datagram (a full
 * 1,200-byte datagram costs ~2.3 KB), so a quarter keeps a whole window of full datagrams at half
 * the buffer, leaving room for unreliable traffic and other peers. 0 (unknown) gives the minimum.
 */
export function recvWindowFor(recvBuffer: number): number {
  const quarter = Math.floor(recvBuffer / 4);
  return Math.min(MAX_RECV_WINDOW, Math.max(Native.MIN_RECV_WINDOW, Number.isFinite(quarter) ? quarter : 0));
}

/** The serializer for an accepted codec name: ours when it names ours, else the JSON fallback. */
export function serializerFor(codec: string, ours: Serializer): Serializer {
  return codec === ours.name && codec !== FALLBACK_CODEC ? ours : compactJsonSerializer;
}

/** The string a cookie binds besides address and port, so a cookie cannot be replayed with other terms. */
export function cookieBinding(offer: NativeParams): string {
  return `${offer.version}/${offer.mtu}/${offer.maxMessage}/${offer.recvWindow}/${offer.codec}/${encodePublicKey(offer.key)}`;
}

function parseParams(value: unknown): NativeParams | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { version, mtu, codec, maxMessage } = value as Record<string, unknown>;
  // Version 1 had no packet keys: such an offer gets v1 (it cannot be authenticated), such an accept a failure.
  const key = decodePublicKey((value as Record<string, unknown>).key);
  if (!key) return undefined;
  // Absent: a peer that does not say is paced as if its buffer were the smallest we allow.
  const given = (value as Record<string, unknown>).recvWindow;
  const recvWindow = given === undefined ? Native.MIN_RECV_WINDOW : given;
  if (!Number.isInteger(version) || (version as number) < Native.VERSION) return undefined;
  if (!Number.isInteger(mtu) || (mtu as number) < Native.MIN_MTU || (mtu as number) > Native.MAX_MTU) return undefined;
  if (typeof codec !== 'string' || codec.length === 0 || codec.length > MAX_CODEC_NAME) return undefined;
  if (
    !Number.isInteger(maxMessage) ||
    (maxMessage as number) < Wire.MAX_BODY_SIZE ||
    (maxMessage as number) > MAX_MESSAGE
  )
    return undefined;
  if (
    !Number.isInteger(recvWindow) ||
    (recvWindow as number) < Native.MIN_RECV_WINDOW ||
    (recvWindow as number) > MAX_RECV_WINDOW
  )
    return undefined;
  return {
    version: Math.min(version as number, Native.VERSION),
    mtu: mtu as number,
    codec,
    maxMessage: maxMessage as number,
    recvWindow: recvWindow as number,
    key,
  };
}
