import { ackFrameSize, messageFrameSize, writeAckFrame, writeMessageFrame } from './nativeFrames';
import { Native } from './nativeWire';

// Module-level copies of imported constants and functions: under a CommonJS transpiler (tsx, vitest) each
// use of an imported binding is a getter call, which shows in the per-message profile.
const { MAGIC, HEADER_SIZE } = Native;
const frameSize = messageFrameSize;
const writeFrame = writeMessageFrame;

/** Sent datagrams are carved from shared blocks of this size, as Node's Buffer pool does. */
const BLOCK_BYTES = 64 * 1024;
let block = new ArrayBuffer(BLOCK_BYTES);
let blockBytes = new Uint8Array(block);
let blockUsed = 0;

/**
 * A copy of the first `length` bytes of `source`, never written again. The whole of `source` (one MTU) is
 * copied, which is cheaper than making a subarray of it; the bytes past `length` are left for the next
 * datagram to overwrite. A plain Uint8Array view is cheaper to make than a Buffer.
 */
function carve(source: Uint8Array, length: number): Uint8Array {
  if (blockUsed + source.length > BLOCK_BYTES) {
    block = new ArrayBuffer(BLOCK_BYTES);
    blockBytes = new Uint8Array(block);
    blockUsed = 0;
  }
  blockBytes.set(source, blockUsed);
  const datagram = new Uint8Array(block, blockUsed, length);
  blockUsed += (length + 7) & ~7;
  return datagram;
}

/**
 * Packs frames into datagrams of at most `mtu` bytes behind the native header. A datagram
 * leaves when the next frame does not fit, or on `flush()` (end of a tick).
 */
export class PacketWriter {
  private readonly buffer: Uint8Array;
  private length: number = HEADER_SIZE;

  constructor(
    token: bigint,
    /** Largest datagram, bytes. */
    readonly mtu: number,
    private readonly send: (datagram: Uint8Array) => void,
  ) {
    this.buffer = new Uint8Array(mtu);
    this.buffer[0] = MAGIC;
    new DataView(this.buffer.buffer).setBigUint64(1, token);
  }

  /** Largest frame one datagram can carry. */
  get maxFrame(): number {
    return this.mtu - HEADER_SIZE;
  }

  /** Whether frames wait to be sent. */
  get pending(): boolean {
    return this.length > HEADER_SIZE;
  }

  /** Bytes still free in the datagram being filled. */
  get room(): number {
    return this.mtu - this.length;
  }

  /** Adds one frame; throws RangeError for a frame that no datagram can hold. */
  append(frame: Uint8Array): void {
    if (frame.length > this.maxFrame) throw new RangeError(`frame of ${frame.length} bytes exceeds the MTU`);
    if (frame.length > this.room) this.flush();
    this.buffer.set(frame, this.length);
    this.length += frame.length;
  }

  /** Adds a MESSAGE frame written straight into the datagram (no frame buffer); throws RangeError like `append`. */
  appendMessage(channel: number, seq: number, body: Uint8Array): void {
    const size = frameSize(channel, seq, body.length);
    if (size > this.maxFrame) throw new RangeError(`frame of ${size} bytes exceeds the MTU`);
    if (size > this.room) this.flush();
    this.length = writeFrame(this.buffer, this.length, channel, seq, body);
  }

  /** Adds an ACK frame of the first `length` bytes of `bitmap`, written straight into the datagram (no frame buffer). */
  appendAck(channel: number, next: number, bitmap: Uint8Array, length = bitmap.length): void {
    const size = ackFrameSize(next, bitmap, length);
    if (size > this.maxFrame) throw new RangeError(`frame of ${size} bytes exceeds the MTU`);
    if (size > this.room) this.flush();
    this.length = writeAckFrame(this.buffer, this.length, channel, next, bitmap, length);
  }

  /** Sends the datagram being filled, if it holds any frame. */
  flush(): void {
    if (!this.pending) return;
    // A copy: the socket may still hold the datagram when the buffer is refilled.
    const datagram = carve(this.buffer, this.length);
    this.length = HEADER_SIZE;
    this.send(datagram);
  }
}
