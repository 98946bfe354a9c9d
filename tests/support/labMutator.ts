import { Wire } from '../../main/net/v1/protocol';
import { below, mutateBody, pick, type Random } from './labBodyMutations';

/** How one fuzz datagram was derived from captured traffic (or not). */
export const MutationKind = {
  REPLAY: 'replay',
  BIT_FLIP: 'bit-flip',
  TRUNCATE: 'truncate',
  EXTEND: 'extend',
  HEADER_SWAP: 'header-swap',
  SPLICE: 'splice',
  CHANNEL: 'channel',
  TOKEN: 'token',
  SEQUENCE: 'sequence',
  ACK: 'ack',
  JSON: 'json',
  RANDOM: 'random',
} as const;

/** One of the {@link MutationKind} strings. */
export type MutationKind = (typeof MutationKind)[keyof typeof MutationKind];

const KINDS = Object.values(MutationKind);

/** What a mutation may produce. */
export interface MutatorOptions {
  /** Whether a body may carry this reserved type (keep `__disconnect__` away from a session that must live). */
  allowType?: (type: string) => boolean;
}

const U32_EDGES = [0, 1, 31, 32, 33, 1023, 1024, 1025, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 2 ** 32 - 2, 2 ** 32 - 1];

/** Offsets of the header's 32-bit fields: sequence, ack, ack_bitfield (the token is 64-bit at 1). */
const U32_FIELDS = [9, 13, 17] as const;

function view(d: Uint8Array): DataView {
  return new DataView(d.buffer, d.byteOffset, d.byteLength);
}

function randomBytes(random: Random, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = below(random, 256);
  return out;
}

function randomU32(random: Random): number {
  return random() < 0.5 ? pick(random, U32_EDGES) : below(random, 2 ** 32);
}

/** A 32-bit header field moved near, far or to an edge of its range. */
function tweakU32(random: Random, d: DataView, offset: number): void {
  const old = d.getUint32(offset);
  const delta = pick(random, [1, -1, 32, -32, 33, -33, 1024, -1024, 2 ** 31]);
  d.setUint32(offset, random() < 0.5 ? (old + delta) >>> 0 : randomU32(random));
}

function tweakToken(random: Random, d: DataView): void {
  const old = d.getBigUint64(1);
  const choices = [0n, 1n, (1n << 64n) - 1n, old ^ (1n << BigInt(below(random, 64))), (old + 1n) & ((1n << 64n) - 1n)];
  const random64 = (BigInt(below(random, 2 ** 32)) << 32n) | BigInt(below(random, 2 ** 32));
  d.setBigUint64(1, random() < 0.2 ? random64 : pick(random, choices));
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

/**
 * Derives one hostile datagram from captured real traffic: an exact replay, bit flips, truncation, extension
 * (sometimes past the 1285-byte limit), header fields swapped or spliced from another datagram, channel, token,
 * sequence and ack tweaks, JSON body mutations, or plain random bytes. Deterministic for a given `random`.
 */
export function mutate(
  corpus: readonly Uint8Array[],
  random: Random,
  options: MutatorOptions = {},
  /** Forces one kind instead of drawing it. */
  only?: MutationKind,
): { kind: MutationKind; datagram: Uint8Array } {
  const kind = only ?? pick(random, KINDS);
  const source = pick(random, corpus);
  const d = new Uint8Array(source);
  const hasHeader = d.byteLength >= Wire.HEADER_SIZE;
  const v = view(d);
  switch (kind) {
    case MutationKind.REPLAY:
      return { kind, datagram: d };
    case MutationKind.BIT_FLIP:
      for (let n = 1 + below(random, 8); n > 0 && d.byteLength > 0; n--)
        d[below(random, d.byteLength)]! ^= 1 << below(random, 8);
      return { kind, datagram: d };
    case MutationKind.TRUNCATE:
      return { kind, datagram: d.subarray(0, below(random, Math.max(1, d.byteLength))) };
    case MutationKind.EXTEND: {
      const room = Wire.MAX_DATAGRAM_SIZE + 64 - d.byteLength;
      return { kind, datagram: concat(d, randomBytes(random, 1 + below(random, Math.max(1, room)))) };
    }
    case MutationKind.HEADER_SWAP:
      if (hasHeader) {
        const [a, b] = [pick(random, U32_FIELDS), pick(random, U32_FIELDS)];
        const [x, y] = [v.getUint32(a), v.getUint32(b)];
        v.setUint32(a, y);
        v.setUint32(b, x);
      }
      return { kind, datagram: d };
    case MutationKind.SPLICE: {
      const other = pick(random, corpus);
      const cut = Math.min(Wire.HEADER_SIZE, d.byteLength);
      return { kind, datagram: concat(d.subarray(0, cut), other.subarray(Math.min(cut, other.byteLength))) };
    }
    case MutationKind.CHANNEL:
      if (d.byteLength > 0) d[0] = random() < 0.5 ? below(random, 3) : below(random, 256);
      return { kind, datagram: d };
    case MutationKind.TOKEN:
      if (hasHeader) tweakToken(random, v);
      return { kind, datagram: d };
    case MutationKind.SEQUENCE:
      if (hasHeader) tweakU32(random, v, 9);
      return { kind, datagram: d };
    case MutationKind.ACK:
      if (hasHeader) {
        tweakU32(random, v, 13);
        if (random() < 0.5) v.setUint32(17, randomU32(random));
      }
      return { kind, datagram: d };
    case MutationKind.JSON: {
      const cut = Math.min(Wire.HEADER_SIZE, d.byteLength);
      const body = mutateBody(random, d.subarray(cut), options.allowType ?? (() => true));
      return { kind, datagram: concat(d.subarray(0, cut), body) };
    }
    default:
      return { kind, datagram: randomBytes(random, below(random, Wire.MAX_DATAGRAM_SIZE + 128)) };
  }
}

/** Bytes before the end of the token: both protocols put it at offset 1 (after v1's channel or native's magic). */
const TOKEN_END = 9;

/** The token in a datagram (v1 or native), or undefined when it is too short to hold one. */
export function tokenOf(datagram: Uint8Array): bigint | undefined {
  return datagram.byteLength >= TOKEN_END ? view(datagram).getBigUint64(1) : undefined;
}

/** Makes sure a datagram does not carry `token` (flips its lowest bit if it does); returns the same array. */
export function avoidToken(datagram: Uint8Array, token: bigint): Uint8Array {
  if (tokenOf(datagram) === token) view(datagram).setBigUint64(1, token ^ 1n);
  return datagram;
}
