import { Frame, Native } from '../../main/net/native/wire/nativeWire';

/** A varint field of a scanned frame: where it is, how long, and its value. */
export interface ScannedVarint {
  name: 'seq' | 'index' | 'count' | 'length' | 'next' | 'bitmapLength' | 'id';
  at: number;
  size: number;
  value: number;
}

/** Where one frame of a native datagram lies, and where its fields are (so a mutator can rewrite one). */
export interface ScannedFrame {
  kind: number;
  start: number;
  end: number;
  channelAt?: number;
  bodyAt?: number;
  varints: ScannedVarint[];
}

const FIELDS: Record<
  number,
  { channel: boolean; varints: ScannedVarint['name'][]; body?: 'length' | 'bitmapLength'; fixed?: number }
> = {
  [Frame.MESSAGE]: { channel: true, varints: ['seq', 'length'], body: 'length' },
  [Frame.FRAGMENT]: { channel: true, varints: ['seq', 'index', 'count', 'length'], body: 'length' },
  [Frame.ACK]: { channel: true, varints: ['next', 'bitmapLength'], body: 'bitmapLength' },
  [Frame.PING]: { channel: false, varints: ['id'] },
  [Frame.PONG]: { channel: false, varints: ['id'] },
  [Frame.DISCONNECT]: { channel: false, varints: ['length'], body: 'length' },
  [Frame.PATH_CHALLENGE]: { channel: false, varints: [], fixed: Native.PATH_DATA },
  [Frame.PATH_RESPONSE]: { channel: false, varints: [], fixed: Native.PATH_DATA },
};

/**
 * Splits a native datagram into frames by the spec's layouts, without judging values (limits are the
 * transport's business): the bytes between the header and the tag (the last {@link Native.TAG_SIZE}, not read).
 * `complete` is false when it stops at an unknown kind or a frame cut short.
 */
export function scanFrames(datagram: Uint8Array): { frames: ScannedFrame[]; complete: boolean } {
  const frames: ScannedFrame[] = [];
  let at = Native.HEADER_SIZE;
  const end = datagram.byteLength - Native.TAG_SIZE;
  if (end <= at) return { frames, complete: false };
  // Everything below reads within the frames: a view that ends where the tag starts.
  datagram = datagram.subarray(0, end);
  while (at < datagram.byteLength) {
    const start = at;
    const kind = datagram[at++]!;
    const layout = FIELDS[kind];
    if (!layout) return { frames, complete: false };
    const frame: ScannedFrame = { kind, start, end: start, varints: [] };
    let channel = -1;
    if (layout.channel) {
      if (at >= datagram.byteLength) return { frames, complete: false };
      frame.channelAt = at;
      channel = datagram[at++]!;
    }
    for (const name of layout.varints) {
      if (name === 'seq' && kind === Frame.MESSAGE && channel === 0) continue; // channel 0 carries no seq
      const v = readVarint(datagram, at);
      if (!v) return { frames, complete: false };
      frame.varints.push({ name, at, size: v.size, value: v.value });
      at += v.size;
    }
    if (layout.body) {
      const length = frame.varints.find((v) => v.name === layout.body)!.value;
      frame.bodyAt = at;
      if (at + length > datagram.byteLength) return { frames, complete: false };
      at += length;
    }
    if (layout.fixed !== undefined) {
      frame.bodyAt = at;
      if (at + layout.fixed > datagram.byteLength) return { frames, complete: false };
      at += layout.fixed;
    }
    frame.end = at;
    frames.push(frame);
  }
  return { frames, complete: true };
}

function readVarint(d: Uint8Array, at: number): { value: number; size: number } | undefined {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    if (at + i >= d.byteLength) return undefined;
    const byte = d[at + i]!;
    value += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) return value > 0xffffffff ? undefined : { value, size: i + 1 };
  }
  return undefined;
}

/** The unsigned LEB128 bytes of `value` (0 ≤ value < 2^32). */
export function writeVarintBytes(value: number): Uint8Array {
  const out: number[] = [];
  let v = value >>> 0;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return Uint8Array.from(out);
}
