import { Buffer } from 'node:buffer';
import { Frame, Native } from './nativeWire';
import { varintSize, writeVarint } from './varint';
import { NATIVE_WIRE_OF, NUMBERED } from './nativeChannels';

// Module-level copies of imported constants and functions: under a CommonJS transpiler (tsx, vitest) each
// use of an imported binding is a getter call, which shows in the per-message profile.
const { MESSAGE, FRAGMENT, ACK, DISCONNECT } = Frame;
const sizeOf = varintSize;
const write = writeVarint;
const WIRE_OF = NATIVE_WIRE_OF;
const HAS_SEQ = NUMBERED;

// Node's pooled allocation: a fresh small ArrayBuffer per frame costs more than encoding the frame.
const alloc = (size: number): Uint8Array => Buffer.allocUnsafe(size);

/** One frame of a native datagram, as parsed. Bodies are views into the datagram; `channel` is a channel id. */
export type NativeFrame =
  | { kind: typeof Frame.MESSAGE; channel: number; seq: number; body: Uint8Array }
  | { kind: typeof Frame.FRAGMENT; channel: number; seq: number; index: number; count: number; body: Uint8Array }
  | { kind: typeof Frame.ACK; channel: number; next: number; bitmap: Uint8Array }
  | { kind: typeof Frame.PING | typeof Frame.PONG; id: number }
  | { kind: typeof Frame.DISCONNECT; reason: string }
  | { kind: typeof Frame.PATH_CHALLENGE | typeof Frame.PATH_RESPONSE; data: Uint8Array };

/** Bytes of the MESSAGE frame carrying `bodyLength` bytes on channel id `channel` with `seq`. */
export function messageFrameSize(channel: number, seq: number, bodyLength: number): number {
  return 2 + (HAS_SEQ[channel] === 1 ? sizeOf(seq) : 0) + sizeOf(bodyLength) + bodyLength;
}

/**
 * Writes a MESSAGE frame at `offset` of `target` (which must have {@link messageFrameSize} bytes free
 * there); returns the offset after it. Lets a datagram be filled without an intermediate frame buffer.
 */
export function writeMessageFrame(
  target: Uint8Array,
  offset: number,
  channel: number,
  seq: number,
  body: Uint8Array,
): number {
  target[offset] = MESSAGE;
  target[offset + 1] = WIRE_OF[channel]!;
  let at = HAS_SEQ[channel] === 1 ? write(target, offset + 2, seq) : offset + 2;
  at = write(target, at, body.length);
  target.set(body, at);
  return at + body.length;
}

/** A MESSAGE frame on channel id `channel`: `seq` is left out on a channel that numbers nothing (UNRELIABLE). */
export function encodeMessageFrame(channel: number, seq: number, body: Uint8Array): Uint8Array {
  const out = alloc(messageFrameSize(channel, seq, body.length));
  writeMessageFrame(out, 0, channel, seq, body);
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
  const size = 2 + sizeOf(seq) + sizeOf(index) + sizeOf(count) + sizeOf(piece.length);
  const out = alloc(size + piece.length);
  out[0] = FRAGMENT;
  out[1] = WIRE_OF[channel]!;
  let at = write(out, 2, seq);
  at = write(out, at, index);
  at = write(out, at, count);
  at = write(out, at, piece.length);
  out.set(piece, at);
  return out;
}

/** Bytes of the bitmap an ACK frame carries: of its first `used`, at most MAX_ACK_BITMAP, trailing zero bytes left out. */
function ackBitmapLength(bitmap: Uint8Array, used: number): number {
  let length = Math.min(used, bitmap.length, Native.MAX_ACK_BITMAP);
  while (length > 0 && bitmap[length - 1] === 0) length--;
  return length;
}

/** Bytes of the ACK frame for `next` and the first `used` bytes of `bitmap`. */
export function ackFrameSize(next: number, bitmap: Uint8Array, used = bitmap.length): number {
  const length = ackBitmapLength(bitmap, used);
  return 2 + sizeOf(next) + sizeOf(length) + length;
}

/**
 * Writes an ACK frame of the first `used` bytes of `bitmap` at `offset` of `target` (which must have
 * {@link ackFrameSize} bytes free there); returns the offset after it. Lets acknowledgements go straight into the
 * datagram.
 */
export function writeAckFrame(
  target: Uint8Array,
  offset: number,
  channel: number,
  next: number,
  bitmap: Uint8Array,
  used = bitmap.length,
): number {
  const length = ackBitmapLength(bitmap, used);
  target[offset] = ACK;
  target[offset + 1] = WIRE_OF[channel]!;
  let at = write(target, offset + 2, next);
  at = write(target, at, length);
  for (let i = 0; i < length; i++) target[at + i] = bitmap[i]!;
  return at + length;
}

/** An ACK frame; trailing zero bytes of the bitmap are left out. */
export function encodeAckFrame(channel: number, next: number, bitmap: Uint8Array): Uint8Array {
  const out = alloc(ackFrameSize(next, bitmap));
  writeAckFrame(out, 0, channel, next, bitmap);
  return out;
}

/** A PING or PONG frame. */
export function encodeIdFrame(kind: typeof Frame.PING | typeof Frame.PONG, id: number): Uint8Array {
  const out = alloc(1 + sizeOf(id));
  out[0] = kind;
  write(out, 1, id);
  return out;
}

/** A DISCONNECT frame; the reason is cut to {@link Native.MAX_REASON} bytes on a character boundary. */
export function encodeDisconnectFrame(reason: string): Uint8Array {
  let text = new TextEncoder().encode(reason);
  if (text.length > Native.MAX_REASON) {
    let end = Native.MAX_REASON;
    while (end > 0 && (text[end]! & 0xc0) === 0x80) end--;
    text = text.subarray(0, end);
  }
  const out = alloc(1 + sizeOf(text.length) + text.length);
  out[0] = DISCONNECT;
  out.set(text, write(out, 1, text.length));
  return out;
}

/** A PATH_CHALLENGE or PATH_RESPONSE frame carrying `data` ({@link Native.PATH_DATA} bytes). */
export function encodePathFrame(
  kind: typeof Frame.PATH_CHALLENGE | typeof Frame.PATH_RESPONSE,
  data: Uint8Array,
): Uint8Array {
  if (data.length !== Native.PATH_DATA) throw new RangeError(`path data is ${Native.PATH_DATA} bytes`);
  const out = alloc(1 + data.length);
  out[0] = kind;
  out.set(data, 1);
  return out;
}
