import { Frame, Native } from '../../main/net/native/wire/nativeWire';
import type { PacketSealer } from '../../main/net/native/protection/packetProtection';
import { below, mutateBody, pick, type Random } from './labBodyMutations';
import { mutate as mutateBytes, MutationKind } from './labMutator';
import { scanFrames, writeVarintBytes, type ScannedFrame } from './labNativeScan';

/** How one native fuzz datagram was derived: a structure-aware change, or one of the byte-level {@link MutationKind}s. */
export const NativeMutationKind = {
  FRAME_KIND: 'frame-kind',
  VARINT: 'varint',
  COUNT: 'fragment-count',
  LENGTH: 'length',
  BITMAP: 'ack-bitmap',
  FRAME_CHANNEL: 'frame-channel',
  FRAME_SPLICE: 'frame-splice',
  FRAME_DROP: 'frame-drop',
  FRAME_TRUNCATE: 'frame-truncate',
  NATIVE_TOKEN: 'native-token',
  BODY: 'body',
  /** A reliable unit's seq moved just past the newest in the corpus: new data to a receiver, not a duplicate. */
  IN_WINDOW: 'in-window',
} as const;

/** One of the {@link NativeMutationKind} strings. */
export type NativeMutationKind = (typeof NativeMutationKind)[keyof typeof NativeMutationKind];

const NATIVE_KINDS = Object.values(NativeMutationKind);
const { TAG_SIZE } = Native;
/** Byte-level mutations that mean something for native datagrams too (the v1 header ones do not). */
const BYTE_KINDS: readonly MutationKind[] = [
  MutationKind.REPLAY,
  MutationKind.BIT_FLIP,
  MutationKind.TRUNCATE,
  MutationKind.EXTEND,
  MutationKind.RANDOM,
];

const U32_EDGES = [0, 1, 2, 127, 128, 1023, 1024, 1025, 16383, 16384, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 2, 2 ** 32 - 1];
/** Varint encodings the parser must refuse or treat with care: 6 bytes long, or above 2^32 − 1. */
const BAD_VARINTS = [
  [0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
  [0xff, 0xff, 0xff, 0xff, 0x1f],
  [0xff, 0xff, 0xff, 0xff, 0x7f],
  [0x80, 0x80, 0x80, 0x80],
];
/** Fragment counts around the limits: too few, the unreliable (64 KiB) and reliable (4 MiB) caps, the most. */
const COUNT_EDGES = [0, 1, 2, 3, 56, 57, 58, 3588, 3589, 3590, 2 ** 16, 2 ** 32 - 1];

/** Options of {@link mutateNative}. */
export interface NativeMutatorOptions {
  /** Refuse results that would parse into a DISCONNECT frame (for a session that must live). */
  keepSession?: boolean;
}

/**
 * Derives one hostile datagram from captured native traffic (datagrams with their tags): frame kinds swapped, varints moved to edges or
 * made overlong, fragment counts and indexes beyond the limits, lengths that lie, ACK bitmaps too long,
 * channels out of range, frames spliced from several datagrams or dropped, cuts inside a frame, tokens,
 * JSON body damage; or a byte-level mutation. Deterministic for a given `random`. The frames change under
 * the old tag (and packet number): a receiver drops the result as `bad-tag` (an exact replay as `replayed`) unless
 * the sender seals it again ({@link resealed}).
 */
export function mutateNative(
  corpus: readonly Uint8Array[],
  random: Random,
  options: NativeMutatorOptions = {},
): { kind: string; datagram: Uint8Array } {
  for (let attempt = 0; attempt < 20; attempt++) {
    const result = once(corpus, random);
    if (!options.keepSession || !disconnects(result.datagram)) return result;
  }
  // Every attempt said goodbye (a corpus of DISCONNECT frames only): send a harmless ping instead.
  const ping = new Uint8Array(Native.HEADER_SIZE + 2 + TAG_SIZE);
  ping[0] = Native.MAGIC;
  ping.set([Frame.PING, 0], Native.HEADER_SIZE);
  return { kind: MutationKind.REPLAY, datagram: ping };
}

/**
 * A copy of a native datagram numbered and tagged again by `sealer` (the sender's, as a peer that holds the keys
 * would): a mutated datagram then passes the tag check and reaches the frame parser. Anything too short to carry
 * a header and a tag, or not native, is returned as it is.
 */
export function resealed(datagram: Uint8Array, sealer: PacketSealer): Uint8Array {
  if (datagram[0] !== Native.MAGIC || datagram.byteLength < Native.HEADER_SIZE + TAG_SIZE) return datagram;
  const out = new Uint8Array(datagram);
  sealer.seal(out, out.byteLength - TAG_SIZE);
  return out;
}

/** The frames of a native datagram: between the header and the tag. */
function framesOf(d: Uint8Array): Uint8Array {
  return d.subarray(Native.HEADER_SIZE, Math.max(Native.HEADER_SIZE, d.byteLength - TAG_SIZE));
}

/** Whether `datagram` would be applied with a DISCONNECT frame in it (the whole datagram parses). */
export function disconnects(datagram: Uint8Array): boolean {
  if (datagram[0] !== Native.MAGIC || datagram.byteLength > Native.MAX_MTU) return false;
  const scan = scanFrames(datagram);
  return scan.complete && scan.frames.some((f) => f.kind === Frame.DISCONNECT);
}

/** What the mutator derives from a corpus once: its native datagrams, and the newest reliable seq per channel. */
interface Prepared {
  native: Uint8Array[];
  newest: Record<1 | 2, number>;
}

const prepared = new WeakMap<readonly Uint8Array[], Prepared>();

function prepare(corpus: readonly Uint8Array[]): Prepared {
  let p = prepared.get(corpus);
  if (p) return p;
  const native = corpus.filter((d) => d[0] === Native.MAGIC);
  const newest: Record<1 | 2, number> = { 1: 0, 2: 0 };
  for (const d of native) {
    for (const f of scanFrames(d).frames) {
      const channel = f.channelAt === undefined ? 0 : d[f.channelAt]!;
      const seq = f.varints.find((v) => v.name === 'seq');
      if ((channel === 1 || channel === 2) && f.kind !== Frame.ACK && seq) {
        newest[channel] = Math.max(newest[channel], seq.value);
      }
    }
  }
  p = { native, newest };
  prepared.set(corpus, p);
  return p;
}

function once(corpus: readonly Uint8Array[], random: Random): { kind: string; datagram: Uint8Array } {
  const p = prepare(corpus);
  if (p.native.length === 0 || random() < 0.3) {
    return mutateBytes(corpus, random, {}, pick(random, BYTE_KINDS));
  }
  const kind = pick(random, NATIVE_KINDS);
  const source = pick(random, p.native);
  const frames = scanFrames(source).frames;
  const frame = frames.length > 0 ? pick(random, frames) : undefined;
  // The frames are changed without their tag (offsets are the same: it is at the end), and the old tag is put
  // back after them: sent as it is, the result tests the tag check; sealed again (see resealed), the frame parser.
  const cut = Math.max(Native.HEADER_SIZE, source.byteLength - TAG_SIZE);
  // A copy (a Buffer's slice would share the corpus's memory).
  const changed = apply(kind, new Uint8Array(source.subarray(0, cut)), frame, p, random);
  return { kind, datagram: concat(changed, source.subarray(cut)) };
}

function apply(
  kind: NativeMutationKind,
  d: Uint8Array,
  frame: ScannedFrame | undefined,
  { native: corpus, newest }: Prepared,
  random: Random,
): Uint8Array {
  switch (kind) {
    case NativeMutationKind.NATIVE_TOKEN: {
      const view = new DataView(d.buffer, d.byteOffset, d.byteLength);
      const old = view.getBigUint64(1);
      const random64 = (BigInt(below(random, 2 ** 32)) << 32n) | BigInt(below(random, 2 ** 32));
      view.setBigUint64(1, pick(random, [0n, old ^ 1n, old ^ (1n << 63n), (1n << 64n) - 1n, random64]));
      return d;
    }
    case NativeMutationKind.FRAME_SPLICE: {
      // Frames of up to three datagrams behind the first one's header; may exceed the MTU.
      const parts = [d.subarray(Native.HEADER_SIZE)];
      for (let n = below(random, 3); n >= 0; n--) parts.push(framesOf(pick(random, corpus)));
      if (random() < 0.3 && frame) parts.push(d.subarray(frame.start, frame.end)); // a frame twice
      return concat(d.subarray(0, Native.HEADER_SIZE), ...parts);
    }
    default:
      break;
  }
  if (!frame) return d;
  switch (kind) {
    case NativeMutationKind.FRAME_KIND: {
      const kinds = [0x00, ...Object.values(Frame), 0x09];
      d[frame.start] = random() < 0.85 ? pick(random, kinds) : below(random, 256);
      return d;
    }
    case NativeMutationKind.FRAME_CHANNEL: {
      if (frame.channelAt === undefined) return d;
      d[frame.channelAt] = random() < 0.6 ? below(random, 4) : pick(random, [4, 5, 0x7f, 0xa7, 0xff]);
      return d;
    }
    case NativeMutationKind.VARINT: {
      const field = frame.varints.length > 0 ? pick(random, frame.varints) : undefined;
      if (!field) return d;
      const bytes =
        random() < 0.2
          ? Uint8Array.from(pick(random, BAD_VARINTS))
          : writeVarintBytes(
              random() < 0.6
                ? pick(random, U32_EDGES)
                : (field.value + pick(random, [-1, 1, -1024, 1024, 2 ** 31])) >>> 0,
            );
      return replace(d, field.at, field.size, bytes);
    }
    case NativeMutationKind.COUNT: {
      const count = frame.varints.find((v) => v.name === 'count');
      const index = frame.varints.find((v) => v.name === 'index');
      if (!count || !index) return d;
      const target = random() < 0.6 ? count : index;
      const value =
        target === count
          ? pick(random, [...COUNT_EDGES, index.value, index.value + 1])
          : pick(random, [count.value - 1, count.value, count.value + 1, 2 ** 32 - 1]);
      return replace(d, target.at, target.size, writeVarintBytes(value >>> 0));
    }
    case NativeMutationKind.LENGTH: {
      const length = frame.varints.find((v) => v.name === 'length');
      if (!length) return d;
      const value = pick(random, [0, length.value - 1, length.value + 1, length.value + 100, 201, 2 ** 31]);
      return replace(d, length.at, length.size, writeVarintBytes(Math.max(0, value) >>> 0));
    }
    case NativeMutationKind.BITMAP: {
      const length = frame.varints.find((v) => v.name === 'bitmapLength');
      if (!length || frame.bodyAt === undefined) return d;
      if (random() < 0.5) {
        // Longer than the spec allows, with the bytes to back it or without (the frames after it are cut).
        const max = Native.MAX_ACK_BITMAP;
        const n = pick(random, [max + 1, max + 72, max + 255, 2 * max]);
        const tail = random() < 0.5 ? new Uint8Array(n).fill(0xff) : new Uint8Array(0);
        return concat(d.subarray(0, length.at), writeVarintBytes(n), tail);
      }
      // The whole window acknowledged at once: every bit set.
      const full = new Uint8Array(Native.MAX_ACK_BITMAP).fill(0xff);
      return concat(d.subarray(0, length.at), writeVarintBytes(full.byteLength), full, d.subarray(frame.end));
    }
    case NativeMutationKind.IN_WINDOW: {
      const channel = frame.channelAt === undefined ? 0 : d[frame.channelAt]!;
      const seq = frame.varints.find((v) => v.name === 'seq');
      if (!seq || frame.kind === Frame.ACK || (channel !== 1 && channel !== 2)) return d;
      return replace(d, seq.at, seq.size, writeVarintBytes(newest[channel] + 1 + below(random, 64)));
    }
    case NativeMutationKind.FRAME_DROP:
      return concat(d.subarray(0, frame.start), d.subarray(frame.end));
    case NativeMutationKind.FRAME_TRUNCATE:
      return d.subarray(0, frame.start + 1 + below(random, Math.max(1, frame.end - frame.start - 1)));
    case NativeMutationKind.BODY: {
      const length = frame.varints.find((v) => v.name === 'length');
      if (!length || frame.bodyAt === undefined || frame.kind !== Frame.MESSAGE) return d;
      const body = mutateBody(random, d.subarray(frame.bodyAt, frame.end), () => true);
      return concat(d.subarray(0, length.at), writeVarintBytes(body.byteLength), body, d.subarray(frame.end));
    }
    default:
      return d;
  }
}

function replace(d: Uint8Array, at: number, size: number, bytes: Uint8Array): Uint8Array {
  return concat(d.subarray(0, at), bytes, d.subarray(at + size));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** Puts `token` into a native datagram's header (a copy); other datagrams are returned as they are. */
export function withToken(datagram: Uint8Array, token: bigint): Uint8Array {
  if (datagram[0] !== Native.MAGIC || datagram.byteLength < Native.HEADER_SIZE) return datagram;
  const out = new Uint8Array(datagram);
  new DataView(out.buffer).setBigUint64(1, token);
  return out;
}
