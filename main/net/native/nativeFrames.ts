import { Frame, Native } from './nativeWire';
import { varintSize, writeVarint } from './varint';

// Node's pooled allocation: a fresh small ArrayBuffer per frame costs more than encoding the frame.
const alloc = (size: number): Uint8Array => Buffer.allocUnsafe(size);

/** One frame of a native datagram, as parsed. Bodies are views into the datagram. */
export type NativeFrame =
  | { kind: typeof Frame.MESSAGE; channel: number; seq: number; body: Uint8Array }
  | { kind: typeof Frame.FRAGMENT; channel: number; seq: number; index: number; count: number; body: Uint8Array }
  | { kind: typeof Frame.ACK; channel: number; next: number; bitmap: Uint8Array }
  | { kind: typeof Frame.PING | typeof Frame.PONG; id: number }
  | { kind: typeof Frame.DISCONNECT; reason: string };

/** A MESSAGE frame: `seq` is left out on channel 0 (UNRELIABLE). */
export function encodeMessageFrame(channel: number, seq: number, body: Uint8Array): Uint8Array {
  const hasSeq = channel !== 0;
  const size = 2 + (hasSeq ? varintSize(seq) : 0) + varintSize(body.byteLength) + body.byteLength;
  const out = alloc(size);
  out[0] = Frame.MESSAGE;
  out[1] = channel;
  let at = hasSeq ? writeVarint(out, 2, seq) : 2;
  at = writeVarint(out, at, body.byteLength);
  out.set(body, at);
  return out;
}

/** A FRAGMENT frame: piece `index` of `count` of the message keyed by `seq`. */
export function encodeFragmentFrame(
  channel: number,
  seq: number,
  index: number,
  count: number,
  piece: Uint8Array,
): Uint8Array {
  const size = 2 + varintSize(seq) + varintSize(index) + varintSize(count) + varintSize(piece.byteLength);
  const out = alloc(size + piece.byteLength);
  out[0] = Frame.FRAGMENT;
  out[1] = channel;
  let at = writeVarint(out, 2, seq);
  at = writeVarint(out, at, index);
  at = writeVarint(out, at, count);
  at = writeVarint(out, at, piece.byteLength);
  out.set(piece, at);
  return out;
}

/** An ACK frame; trailing zero bytes of the bitmap are left out. */
export function encodeAckFrame(channel: number, next: number, bitmap: Uint8Array): Uint8Array {
  let length = Math.min(bitmap.byteLength, Native.MAX_ACK_BITMAP);
  while (length > 0 && bitmap[length - 1] === 0) length--;
  const out = alloc(2 + varintSize(next) + varintSize(length) + length);
  out[0] = Frame.ACK;
  out[1] = channel;
  let at = writeVarint(out, 2, next);
  at = writeVarint(out, at, length);
  out.set(bitmap.subarray(0, length), at);
  return out;
}

/** A PING or PONG frame. */
export function encodeIdFrame(kind: typeof Frame.PING | typeof Frame.PONG, id: number): Uint8Array {
  const out = alloc(1 + varintSize(id));
  out[0] = kind;
  writeVarint(out, 1, id);
  return out;
}

/** A DISCONNECT frame; the reason is cut to {@link Native.MAX_REASON} bytes on a character boundary. */
export function encodeDisconnectFrame(reason: string): Uint8Array {
  let text = new TextEncoder().encode(reason);
  if (text.byteLength > Native.MAX_REASON) {
    let end = Native.MAX_REASON;
    while (end > 0 && (text[end]! & 0xc0) === 0x80) end--;
    text = text.subarray(0, end);
  }
  const out = alloc(1 + varintSize(text.byteLength) + text.byteLength);
  out[0] = Frame.DISCONNECT;
  out.set(text, writeVarint(out, 1, text.byteLength));
  return out;
}
