import { ackFrameSize, messageFrameSize, writeAckFrame, writeMessageFrame } from './nativeFrames';
import { Native } from './nativeWire';
import type { PacketSealer } from '../protection/packetProtection';

// Module-level copies of imported constants and functions: under a CommonJS transpiler (tsx, vitest) each
// use of an imported binding is a getter call, which shows in the per-message profile.
const { MAGIC, HEADER_SIZE, TAG_SIZE } = Native;
const frameSize = messageFrameSize;
const writeFrame = writeMessageFrame;

/**
 * Where a {@link PacketWriter}'s datagrams go. Returns true when the bytes were consumed before it returned (the
 * OS copied them): the writer then fills the next datagram in the same memory. Anything else means the datagram
 * may still be read later, and the writer moves on to fresh memory.
 */
export type DatagramSink = (datagram: Uint8Array) => boolean | void;

/**
 * Packs frames into datagrams of at most `mtu` bytes behind the native header, numbered and tagged by the
 * connection's {@link PacketSealer} as they leave. A datagram leaves when the next frame does not fit, or on
 * `flush()` (end of a tick).
 *
 * Datagrams are sent from the writer's own buffer, reused while the sink reports its sends done. A copy
 * per datagram into fresh blocks, as before, cost page faults: the allocator handed freed blocks back to
 * the OS and took new ones (~0.1 fault per echo round trip per side, ~15 µs each on this VM).
 */
export class PacketWriter {
  private buffer: Uint8Array;
  private arrayBuffer: ArrayBuffer;
  private length: number = HEADER_SIZE;
  /**
   * The last datagram's view of the buffer, handed out again for one of the same length (a broadcast's are all
   * one size): a fresh view per datagram was an allocation each. Only reused while the sink consumed the last.
   */
  private view: Uint8Array;

  constructor(
    token: bigint,
    /** Largest datagram, bytes. */
    readonly mtu: number,
    private readonly send: DatagramSink,
    /** Numbers and tags each datagram (shared by every writer of one connection). */
    private readonly sealer: PacketSealer,
  ) {
    this.arrayBuffer = new ArrayBuffer(mtu);
    this.buffer = new Uint8Array(this.arrayBuffer);
    this.view = this.buffer;
    this.buffer[0] = MAGIC;
    new DataView(this.arrayBuffer).setBigUint64(1, token);
  }

  /** Largest frame one datagram can carry. */
  get maxFrame(): number {
    return this.mtu - HEADER_SIZE - TAG_SIZE;
  }

  /** Whether frames wait to be sent. */
  get pending(): boolean {
    return this.length > HEADER_SIZE;
  }

  /** Bytes still free in the datagram being filled. */
  get room(): number {
    return this.mtu - TAG_SIZE - this.length;
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
    const size = this.sealer.seal(this.buffer, this.length);
    if (this.view.length !== size) this.view = new Uint8Array(this.arrayBuffer, 0, size);
    this.length = HEADER_SIZE;
    if (this.send(this.view) !== true) this.renew();
  }

  /** Moves on to fresh memory (same header), leaving the last datagram to whoever still reads it. */
  private renew(): void {
    const header = this.buffer.subarray(0, HEADER_SIZE);
    this.arrayBuffer = new ArrayBuffer(this.mtu);
    this.buffer = new Uint8Array(this.arrayBuffer);
    this.view = this.buffer;
    this.buffer.set(header);
  }
}
