import { messageFrameSize, writeMessageFrame } from './nativeFrames';
import { Native } from './nativeWire';

// Module-level copies of imported constants and functions: under a CommonJS transpiler (tsx, vitest) each
// use of an imported binding is a getter call, which shows in the per-message profile.
const { MAGIC, HEADER_SIZE } = Native;
const frameSize = messageFrameSize;
const writeFrame = writeMessageFrame;

/** Datagrams carved from one slab before the next is allocated. */
const SLAB_DATAGRAMS = 48;

/**
 * Packs frames into datagrams of at most `mtu` bytes behind the native header. A datagram
 * leaves when the next frame does not fit, or on `flush()` (end of a tick).
 *
 * Each datagram is filled in place in a slab shared with the next ones and handed out as a view,
 * never written again: no copy per datagram, and one allocation per {@link SLAB_DATAGRAMS}
 * (Node's 8 KiB Buffer pool would need a fresh pool every six full datagrams).
 */
export class PacketWriter {
  private readonly header: Uint8Array;
  private slab!: ArrayBuffer;
  /** Where the datagram being filled starts in the slab. */
  private start = 0;
  /** The datagram being filled: `mtu` bytes of the slab from `start`. */
  private buffer!: Uint8Array;
  private length: number = HEADER_SIZE;

  constructor(
    token: bigint,
    /** Largest datagram, bytes. */
    readonly mtu: number,
    private readonly send: (datagram: Uint8Array) => void,
  ) {
    this.header = new Uint8Array(HEADER_SIZE);
    this.header[0] = MAGIC;
    new DataView(this.header.buffer).setBigUint64(1, token);
    this.slab = new ArrayBuffer(mtu * SLAB_DATAGRAMS);
    this.begin(0);
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
    if (frame.byteLength > this.maxFrame) throw new RangeError(`frame of ${frame.byteLength} bytes exceeds the MTU`);
    if (frame.byteLength > this.room) this.flush();
    this.buffer.set(frame, this.length);
    this.length += frame.byteLength;
  }

  /** Adds a MESSAGE frame written straight into the datagram (no frame buffer); throws RangeError like `append`. */
  appendMessage(channel: number, seq: number, body: Uint8Array): void {
    const size = frameSize(channel, seq, body.byteLength);
    if (size > this.maxFrame) throw new RangeError(`frame of ${size} bytes exceeds the MTU`);
    if (size > this.room) this.flush();
    this.length = writeFrame(this.buffer, this.length, channel, seq, body);
  }

  /** Sends the datagram being filled, if it holds any frame. */
  flush(): void {
    if (!this.pending) return;
    const datagram = this.buffer.subarray(0, this.length);
    // The socket may hold the datagram after `send` returns: the next one starts after it, on 8 bytes.
    let next = this.start + ((this.length + 7) & ~7);
    if (next + this.mtu > this.slab.byteLength) {
      this.slab = new ArrayBuffer(this.mtu * SLAB_DATAGRAMS);
      next = 0;
    }
    this.begin(next);
    this.send(datagram);
  }

  /** Starts the next datagram at `start` of the slab, header written. */
  private begin(start: number): void {
    this.start = start;
    this.buffer = new Uint8Array(this.slab, start, this.mtu);
    this.buffer.set(this.header);
    this.length = HEADER_SIZE;
  }
}
