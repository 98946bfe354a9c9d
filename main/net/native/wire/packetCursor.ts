import { CHANNEL_POLICY } from '../../../../shared/net/channel';
import { CHANNEL_OF_NATIVE_WIRE, NUMBERED } from './nativeChannels';
import { Frame, Native } from './nativeWire';

// Module-level copies of imported constants: under a CommonJS transpiler (tsx, vitest) each use of an
// imported binding is a getter call, which shows in the per-message profile.
const { MESSAGE, FRAGMENT, ACK, PING, PONG, DISCONNECT, PATH_CHALLENGE, PATH_RESPONSE } = Frame;
const { MAGIC, HEADER_SIZE, TAG_SIZE, MAX_ACK_BITMAP, MAX_REASON, PATH_DATA } = Native;

const CHANNEL_OF_WIRE = CHANNEL_OF_NATIVE_WIRE;
const HAS_SEQ = NUMBERED;
const POLICY = CHANNEL_POLICY;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A datagram that is not a well-formed native packet. */
export class NativeParseError extends Error {
  override name = 'NativeParseError';
}

/** The big-endian u32 at `at`. */
const u32 = (d: Uint8Array, at: number): number =>
  ((d[at]! << 24) | (d[at + 1]! << 16) | (d[at + 2]! << 8) | d[at + 3]!) >>> 0;

/**
 * Reads one untrusted native datagram without building objects per frame: the frames between the header and the
 * tag (the tag is checked before, by the connection's PacketOpener; the cursor does not look at it). The constructor checks every
 * frame (so a datagram is applied whole or not at all) and throws {@link NativeParseError}; then
 * {@link next} steps through the frames again, leaving each one's fields on the cursor. Frame objects,
 * a frames array and a reader per datagram showed in the round-trip profile. Sizes are read as `length`:
 * on Node 20 a typed array's `byteLength` (and `byteOffset`, `buffer`) is a generic ~12 ns load, `length` is inlined.
 */
export class PacketCursor {
  /** The token's high and low 32 bits. */
  readonly tokenHigh: number;
  readonly tokenLow: number;
  /** The current frame's kind, and the fields its kind has (others keep stale values). */
  kind = 0;
  /** The frame's channel id (read from its channel byte). */
  channel = 0;
  seq = 0;
  /** FRAGMENT: piece `index` of `count`. */
  index = 0;
  count = 0;
  /** ACK: every sequence before `next` arrived. */
  next = 0;
  /** PING / PONG. */
  id = 0;
  /** The datagram's packet number field (its low 32 bits). */
  readonly packetNumber: number;
  /** Where the current frame's body (MESSAGE, FRAGMENT), bitmap (ACK), reason (DISCONNECT) or path data lies. */
  start = 0;
  length = 0;
  private at: number = HEADER_SIZE;
  /** The datagram's ArrayBuffer and offset, read once: `buffer` and `byteOffset` are slow, generic loads. */
  private readonly buffer: ArrayBufferLike;
  private readonly offset: number;
  /** Where the frames end: the tag's first byte. */
  private readonly end: number;

  constructor(private readonly data: Uint8Array) {
    if (data.length < HEADER_SIZE + 1 + TAG_SIZE)
      throw new NativeParseError('shorter than a header, a frame and a tag');
    if (data[0] !== MAGIC) throw new NativeParseError('not a native datagram');
    this.tokenHigh = u32(data, 1);
    this.tokenLow = u32(data, 5);
    this.packetNumber = u32(data, 9);
    this.buffer = data.buffer;
    this.offset = data.byteOffset;
    this.end = data.length - TAG_SIZE;
    while (this.at < this.end) {
      this.readFrame();
      if (this.kind === DISCONNECT) this.checkReason();
    }
    this.at = HEADER_SIZE;
  }

  /** Moves to the next frame; false after the last. */
  nextFrame(): boolean {
    if (this.at >= this.end) return false;
    this.readFrame();
    return true;
  }

  /** The current frame's body, bitmap or reason bytes: a view into the datagram, no copy. */
  view(): Uint8Array {
    return new Uint8Array(this.buffer, this.offset + this.start, this.length);
  }

  /** The current DISCONNECT frame's reason. */
  reason(): string {
    return utf8.decode(this.view());
  }

  private checkReason(): void {
    try {
      utf8.decode(this.view());
    } catch {
      throw new NativeParseError('disconnect reason is not UTF-8');
    }
  }

  private readFrame(): void {
    const kind = (this.kind = this.u8());
    switch (kind) {
      case MESSAGE:
        this.channel = this.channelByte();
        this.seq = HAS_SEQ[this.channel] === 1 ? this.varint() : 0;
        return this.span(this.varint());
      case FRAGMENT: {
        this.channel = this.channelByte();
        this.seq = this.varint();
        const index = (this.index = this.varint());
        const count = (this.count = this.varint());
        if (count < 2 || index >= count) throw new NativeParseError(`fragment ${index} of ${count}`);
        return this.span(this.varint());
      }
      case ACK: {
        const wire = this.u8();
        const channel = CHANNEL_OF_WIRE[wire]!;
        if (channel < 0 || !POLICY[channel]!.reliable) throw new NativeParseError(`ack on channel ${wire}`);
        this.channel = channel;
        this.next = this.varint();
        const length = this.varint();
        if (length > MAX_ACK_BITMAP) throw new NativeParseError(`ack bitmap of ${length} bytes`);
        return this.span(length);
      }
      case PING:
      case PONG:
        this.id = this.varint();
        return;
      case DISCONNECT: {
        const length = this.varint();
        if (length > MAX_REASON) throw new NativeParseError(`reason of ${length} bytes`);
        return this.span(length);
      }
      case PATH_CHALLENGE:
      case PATH_RESPONSE:
        return this.span(PATH_DATA);
      default:
        throw new NativeParseError(`unknown frame kind 0x${kind.toString(16)}`);
    }
  }

  /** Claims the next `length` bytes as the current frame's payload. */
  private span(length: number): void {
    if (length > this.end - this.at) throw new NativeParseError('datagram ends inside a field');
    this.start = this.at;
    this.length = length;
    this.at += length;
  }

  private u8(): number {
    if (this.at >= this.end) throw new NativeParseError('datagram ends inside a field');
    return this.data[this.at++]!;
  }

  private channelByte(): number {
    const wire = this.u8();
    const channel = CHANNEL_OF_WIRE[wire]!;
    if (channel < 0) throw new NativeParseError(`unknown channel ${wire}`);
    return channel;
  }

  /** An unsigned LEB128 value below 2^32, in at most 5 bytes. */
  private varint(): number {
    const data = this.data;
    const end = this.end;
    const first = this.at < end ? data[this.at] : undefined;
    if (first !== undefined && first < 0x80) {
      // Most fields (sequences early on, lengths under 128) fit one byte.
      this.at += 1;
      return first;
    }
    let at = this.at;
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 5; i++) {
      if (at >= end) throw new NativeParseError('datagram ends inside a field');
      const byte = data[at++]!;
      if (i === 4 && byte > 0x0f) throw new NativeParseError('varint exceeds 32 bits');
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) {
        this.at = at;
        return result;
      }
      scale *= 128;
    }
    throw new NativeParseError('varint longer than 5 bytes');
  }
}
