import { Frame, Native } from './nativeWire';
import type { NativeFrame } from './nativeFrames';
import { ByteReader, TruncatedError } from './varint';

// Module-level copies of imported constants and functions: under a CommonJS transpiler (tsx, vitest) each
// use of an imported binding is a getter call, which shows in the per-message profile.
const { MESSAGE, FRAGMENT, ACK, PING, PONG, DISCONNECT } = Frame;
const { MAGIC, HEADER_SIZE, MAX_ACK_BITMAP, MAX_REASON } = Native;

/** A datagram that is not a well-formed native packet. */
export class NativeParseError extends Error {
  override name = 'NativeParseError';
}

/** A parsed native datagram. */
export interface NativePacket {
  /** The connection token, built when read (a BigInt per datagram showed in the round-trip profile). */
  readonly token: bigint;
  /** The token's high and low 32 bits, for a comparison that allocates nothing. */
  readonly tokenHigh: number;
  readonly tokenLow: number;
  frames: NativeFrame[];
}

class ParsedPacket implements NativePacket {
  constructor(
    readonly tokenHigh: number,
    readonly tokenLow: number,
    readonly frames: NativeFrame[],
  ) {}

  get token(): bigint {
    return (BigInt(this.tokenHigh) << 32n) | BigInt(this.tokenLow);
  }
}

/** The high and low 32 bits of a 64-bit token. */
export function splitToken(token: bigint): { high: number; low: number } {
  return { high: Number((token >> 32n) & 0xffffffffn), low: Number(token & 0xffffffffn) };
}

/** The big-endian u32 at `at`. */
const u32 = (d: Uint8Array, at: number): number =>
  ((d[at]! << 24) | (d[at + 1]! << 16) | (d[at + 2]! << 8) | d[at + 3]!) >>> 0;

const LAST_CHANNEL = 3;
const Uint8ArrayPrototype = Uint8Array.prototype;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether a datagram claims to be native (its first byte); v1 datagrams start with 0–2. */
export function isNativeDatagram(data: Uint8Array): boolean {
  return data.byteLength > 0 && data[0] === MAGIC;
}

/**
 * The one place untrusted native datagrams are parsed. Every frame is checked before any is
 * returned, so a datagram is applied whole or not at all. Throws {@link NativeParseError}.
 */
export function parseNativePacket(datagram: Uint8Array): NativePacket {
  // A plain view of a Buffer: its subarray (one per frame body) is much cheaper than Buffer's.
  const data =
    Object.getPrototypeOf(datagram) === Uint8ArrayPrototype
      ? datagram
      : new Uint8Array(datagram.buffer, datagram.byteOffset, datagram.byteLength);
  if (data.byteLength < HEADER_SIZE + 1) throw new NativeParseError('shorter than a header and one frame');
  if (data[0] !== MAGIC) throw new NativeParseError('not a native datagram');
  const reader = new ByteReader(data, HEADER_SIZE);
  const frames: NativeFrame[] = [];
  try {
    while (reader.remaining > 0) frames.push(readFrame(reader));
  } catch (error) {
    if (error instanceof NativeParseError) throw error;
    if (error instanceof TruncatedError) throw new NativeParseError(error.message);
    throw new NativeParseError('malformed frame');
  }
  return new ParsedPacket(u32(data, 1), u32(data, 5), frames);
}

function readFrame(r: ByteReader): NativeFrame {
  const kind = r.u8();
  switch (kind) {
    case MESSAGE: {
      const channel = channelByte(r);
      const seq = channel === 0 ? 0 : r.varint();
      return { kind, channel, seq, body: r.bytes(r.varint()) };
    }
    case FRAGMENT: {
      const channel = channelByte(r);
      const seq = r.varint();
      const index = r.varint();
      const count = r.varint();
      if (count < 2 || index >= count) throw new NativeParseError(`fragment ${index} of ${count}`);
      return { kind, channel, seq, index, count, body: r.bytes(r.varint()) };
    }
    case ACK: {
      const channel = r.u8();
      if (channel !== 1 && channel !== 2) throw new NativeParseError(`ack on channel ${channel}`);
      const next = r.varint();
      const length = r.varint();
      if (length > MAX_ACK_BITMAP) throw new NativeParseError(`ack bitmap of ${length} bytes`);
      return { kind, channel, next, bitmap: r.bytes(length) };
    }
    case PING:
    case PONG:
      return { kind, id: r.varint() };
    case DISCONNECT: {
      const length = r.varint();
      if (length > MAX_REASON) throw new NativeParseError(`reason of ${length} bytes`);
      return { kind, reason: utf8.decode(r.bytes(length)) };
    }
    default:
      throw new NativeParseError(`unknown frame kind 0x${kind.toString(16)}`);
  }
}

function channelByte(r: ByteReader): number {
  const channel = r.u8();
  if (channel > LAST_CHANNEL) throw new NativeParseError(`unknown channel ${channel}`);
  return channel;
}
