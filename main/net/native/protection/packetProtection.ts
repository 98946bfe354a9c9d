import { Native } from '../wire/nativeWire';
import { SipHashKey } from './sipHash';

const { PN_OFFSET, TAG_SIZE, REPLAY_WINDOW, HEADER_SIZE } = Native;
const TWO_32 = 2 ** 32;

/** The two 16-byte keys of one connection, one per direction (see deriveNativeKeys in nativeKeys.ts). */
export interface DirectionKeys {
  /** Tags what this side sends. */
  readonly send: Uint8Array;
  /** Checks what the other side sends. */
  readonly receive: Uint8Array;
  /** 32 public bytes both ends derive alike from the handshake, naming this connection (for a password check above). */
  readonly binding?: Uint8Array;
}

/**
 * Numbers and tags outgoing datagrams: writes the packet number into the header and the tag after the frames.
 * One per connection, shared by every writer of it (a path challenge to another address takes the next number
 * like any datagram), so no number is ever used twice under one key.
 */
export class PacketSealer {
  private readonly key: SipHashKey;
  /** The next datagram's full packet number (a double: exact to 2^53, far beyond any connection's life). */
  next = 0;

  constructor(key: Uint8Array) {
    this.key = new SipHashKey(key);
  }

  /** Seals `buffer[0, length)` (header and frames) in place; returns the datagram's length with its tag. */
  seal(buffer: Uint8Array, length: number): number {
    const pn = this.next++;
    const high = Math.floor(pn / TWO_32);
    const low = pn >>> 0;
    buffer[PN_OFFSET] = low >>> 24;
    buffer[PN_OFFSET + 1] = (low >>> 16) & 0xff;
    buffer[PN_OFFSET + 2] = (low >>> 8) & 0xff;
    buffer[PN_OFFSET + 3] = low & 0xff;
    const key = this.key;
    key.hash(high, low, buffer, 0, length);
    writeTag(buffer, length, key.high, key.low);
    return length + TAG_SIZE;
  }
}

/** What {@link PacketOpener.open} found. */
export const Opened = {
  /** Authentic, not seen before, and newer than any datagram received so far. */
  NEWEST: 1,
  /** Authentic and not seen before, but older than the newest (reordered). */
  LATE: 2,
  /** The tag does not match: forged, damaged, or under another key. */
  BAD_TAG: 3,
  /** A packet number already received, or too far behind the newest to tell: a replay. */
  REPLAY: 4,
} as const;

/** One of the {@link Opened} results. */
export type Opened = (typeof Opened)[keyof typeof Opened];

/**
 * Checks incoming datagrams: the tag under the receive key, then the packet number against what was received
 * (a window of {@link Native.REPLAY_WINDOW} behind the newest; each number is accepted once). Keeps the count
 * of numbers skipped, for the receive loss. Allocates nothing per datagram.
 */
export class PacketOpener {
  private readonly key: SipHashKey;
  /** Newest packet number received (−1: none yet). */
  largest = -1;
  /** Per slot pn % window: pn + 1 of the last number received there (a slot holding another value: not seen). */
  private readonly seen = new Float64Array(REPLAY_WINDOW);
  /** The last opened datagram's full packet number. */
  pn = 0;

  constructor(key: Uint8Array) {
    this.key = new SipHashKey(key);
  }

  /**
   * Authenticates `data` (at least header + tag bytes) and, when authentic and new, records its packet number.
   * A datagram that fails is not recorded, so a forgery cannot make the real one with its number look replayed.
   */
  open(data: Uint8Array): Opened {
    const length = data.length;
    if (length < HEADER_SIZE + TAG_SIZE) return Opened.BAD_TAG;
    const truncated =
      ((data[PN_OFFSET]! << 24) | (data[PN_OFFSET + 1]! << 16) | (data[PN_OFFSET + 2]! << 8) | data[PN_OFFSET + 3]!) >>>
      0;
    const pn = expandPacketNumber(this.largest, truncated);
    const end = length - TAG_SIZE;
    const key = this.key;
    key.hash(Math.floor(pn / TWO_32), truncated, data, 0, end);
    if (!tagMatches(data, end, key.high, key.low)) return Opened.BAD_TAG;
    const largest = this.largest;
    if (pn <= largest - REPLAY_WINDOW) return Opened.REPLAY;
    const slot = pn % REPLAY_WINDOW;
    if (this.seen[slot] === pn + 1) return Opened.REPLAY;
    this.seen[slot] = pn + 1;
    this.pn = pn;
    if (pn > largest) {
      this.largest = pn;
      return Opened.NEWEST;
    }
    return Opened.LATE;
  }
}

/**
 * The full packet number closest to the one after `largest` whose low 32 bits are `truncated` (as QUIC
 * expands its truncated numbers): the wire carries 32 bits, the tag covers all of them.
 */
export function expandPacketNumber(largest: number, truncated: number): number {
  const expected = largest + 1;
  const base = expected - (expected % TWO_32);
  const candidate = base + truncated;
  if (candidate <= expected - TWO_32 / 2 && candidate + TWO_32 <= Number.MAX_SAFE_INTEGER) return candidate + TWO_32;
  if (candidate > expected + TWO_32 / 2 && candidate >= TWO_32) return candidate - TWO_32;
  return candidate;
}

function writeTag(buffer: Uint8Array, at: number, high: number, low: number): void {
  buffer[at] = high >>> 24;
  buffer[at + 1] = (high >>> 16) & 0xff;
  buffer[at + 2] = (high >>> 8) & 0xff;
  buffer[at + 3] = high & 0xff;
  buffer[at + 4] = low >>> 24;
  buffer[at + 5] = (low >>> 16) & 0xff;
  buffer[at + 6] = (low >>> 8) & 0xff;
  buffer[at + 7] = low & 0xff;
}

/** Compares all 8 bytes whatever differs first (no early exit to time). */
function tagMatches(data: Uint8Array, at: number, high: number, low: number): boolean {
  const h = ((data[at]! << 24) | (data[at + 1]! << 16) | (data[at + 2]! << 8) | data[at + 3]!) >>> 0;
  const l = ((data[at + 4]! << 24) | (data[at + 5]! << 16) | (data[at + 6]! << 8) | data[at + 7]!) >>> 0;
  return ((h ^ high) | (l ^ low)) === 0;
}
