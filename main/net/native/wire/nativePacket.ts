import { Frame, Native } from './nativeWire';
import type { NativeFrame } from './nativeFrames';
import { PacketCursor } from './packetCursor';

export { NativeParseError } from './packetCursor';

const { MESSAGE, FRAGMENT, ACK, PING, PONG } = Frame;
const { MAGIC } = Native;

/** A parsed native datagram. */
export interface NativePacket {
  /** The connection token, built when read. */
  readonly token: bigint;
  /** The token's high and low 32 bits, for a comparison that allocates nothing. */
  readonly tokenHigh: number;
  readonly tokenLow: number;
  /** The packet number field (low 32 bits of the sender's datagram count). */
  readonly packetNumber: number;
  frames: NativeFrame[];
}

class ParsedPacket implements NativePacket {
  constructor(
    readonly tokenHigh: number,
    readonly tokenLow: number,
    readonly packetNumber: number,
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

/** Whether a datagram claims to be native (its first byte); v1 datagrams start with 0–2. */
export function isNativeDatagram(data: Uint8Array): boolean {
  return data.length > 0 && data[0] === MAGIC;
}

/**
 * A native datagram as frame objects, for tests and tools (the tag is not checked: that needs the key, see
 * PacketOpener); the receive path reads it through a
 * {@link PacketCursor} (the one place untrusted native datagrams are parsed) without building them.
 * Every frame is checked before any is returned. Throws {@link NativeParseError}.
 */
export function parseNativePacket(datagram: Uint8Array): NativePacket {
  const cursor = new PacketCursor(datagram);
  const frames: NativeFrame[] = [];
  while (cursor.nextFrame()) frames.push(frameAt(cursor));
  return new ParsedPacket(cursor.tokenHigh, cursor.tokenLow, cursor.packetNumber, frames);
}

function frameAt(c: PacketCursor): NativeFrame {
  switch (c.kind) {
    case MESSAGE:
      return { kind: MESSAGE, channel: c.channel, seq: c.seq, body: c.view() };
    case FRAGMENT:
      return { kind: FRAGMENT, channel: c.channel, seq: c.seq, index: c.index, count: c.count, body: c.view() };
    case ACK:
      return { kind: ACK, channel: c.channel, next: c.next, bitmap: c.view() };
    case PING:
    case PONG:
      return { kind: c.kind, id: c.id };
    case Frame.PATH_CHALLENGE:
    case Frame.PATH_RESPONSE:
      return { kind: c.kind, data: c.view().slice() };
    default:
      return { kind: Frame.DISCONNECT, reason: c.reason() };
  }
}
