import { Frame, Native } from './nativeWire';
import type { NativeFrame } from './nativeFrames';
import { ByteReader, TruncatedError } from './varint';

/** A datagram that is not a well-formed native packet. */
export class NativeParseError extends Error {
  override name = 'NativeParseError';
}

/** A parsed native datagram. */
export interface NativePacket {
  token: bigint;
  frames: NativeFrame[];
}

const LAST_CHANNEL = 3;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether a datagram claims to be native (its first byte); v1 datagrams start with 0–2. */
export function isNativeDatagram(data: Uint8Array): boolean {
  return data.byteLength > 0 && data[0] === Native.MAGIC;
}

/**
 * The one place untrusted native datagrams are parsed. Every frame is checked before any is
 * returned, so a datagram is applied whole or not at all. Throws {@link NativeParseError}.
 */
export function parseNativePacket(data: Uint8Array): NativePacket {
  if (data.byteLength < Native.HEADER_SIZE + 1) throw new NativeParseError('shorter than a header and one frame');
  if (data[0] !== Native.MAGIC) throw new NativeParseError('not a native datagram');
  const token = new DataView(data.buffer, data.byteOffset + 1, 8).getBigUint64(0);
  const reader = new ByteReader(data, Native.HEADER_SIZE);
  const frames: NativeFrame[] = [];
  try {
    while (reader.remaining > 0) frames.push(readFrame(reader));
  } catch (error) {
    if (error instanceof NativeParseError) throw error;
    if (error instanceof TruncatedError) throw new NativeParseError(error.message);
    throw new NativeParseError('malformed frame');
  }
  return { token, frames };
}

function readFrame(r: ByteReader): NativeFrame {
  const kind = r.u8();
  switch (kind) {
    case Frame.MESSAGE: {
      const channel = channelByte(r);
      const seq = channel === 0 ? 0 : r.varint();
      return { kind, channel, seq, body: r.bytes(r.varint()) };
    }
    case Frame.FRAGMENT: {
      const channel = channelByte(r);
      const seq = r.varint();
      const index = r.varint();
      const count = r.varint();
      if (count < 2 || index >= count) throw new NativeParseError(`fragment ${index} of ${count}`);
      return { kind, channel, seq, index, count, body: r.bytes(r.varint()) };
    }
    case Frame.ACK: {
      const channel = r.u8();
      if (channel !== 1 && channel !== 2) throw new NativeParseError(`ack on channel ${channel}`);
      const next = r.varint();
      const length = r.varint();
      if (length > Native.MAX_ACK_BITMAP) throw new NativeParseError(`ack bitmap of ${length} bytes`);
      return { kind, channel, next, bitmap: r.bytes(length) };
    }
    case Frame.PING:
    case Frame.PONG:
      return { kind, id: r.varint() };
    case Frame.DISCONNECT: {
      const length = r.varint();
      if (length > Native.MAX_REASON) throw new NativeParseError(`reason of ${length} bytes`);
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
