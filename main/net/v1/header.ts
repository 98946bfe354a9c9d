import { Wire } from './protocol';

/** The fixed 21-byte header in front of every gale.net v1 datagram. */
export interface PacketHeader {
  channel: number;
  /** Unsigned 64-bit connection token; 0n in a connect request. */
  token: bigint;
  sequence: number;
  ack: number;
  ackBitfield: number;
}

/** The header fields a connection reads: its owner checked the token before handing the datagram over. */
export type ReceivedHeader = Readonly<Omit<PacketHeader, 'token'>>;

const U64_MAX = (1n << 64n) - 1n;

/** Writes `header` big-endian into `target` at `offset` (default 0). Throws on out-of-range fields. */
export function writeHeader(target: Uint8Array, header: PacketHeader, offset = 0): void {
  const { channel, token, sequence, ack, ackBitfield } = header;
  if (!Number.isInteger(channel) || channel < 0 || channel > 255)
    throw new RangeError(`channel ${channel} is not a byte`);
  if (token < 0n || token > U64_MAX) throw new RangeError('token must be an unsigned 64-bit integer');
  for (const [name, v] of [
    ['sequence', sequence],
    ['ack', ack],
    ['ackBitfield', ackBitfield],
  ] as const) {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff)
      throw new RangeError(`${name} ${v} is not an unsigned 32-bit integer`);
  }
  const view = new DataView(target.buffer, target.byteOffset + offset, Wire.HEADER_SIZE);
  view.setUint8(0, channel);
  view.setBigUint64(1, token);
  view.setUint32(9, sequence);
  view.setUint32(13, ack);
  view.setUint32(17, ackBitfield);
}

/** Packs a header into a fresh 21-byte array. */
export function packHeader(header: PacketHeader): Uint8Array {
  const out = new Uint8Array(Wire.HEADER_SIZE);
  writeHeader(out, header);
  return out;
}

/** Reads the header at the start of `data`, or returns undefined when `data` is shorter than a header. */
export function unpackHeader(data: Uint8Array): PacketHeader | undefined {
  if (data.byteLength < Wire.HEADER_SIZE) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, Wire.HEADER_SIZE);
  return {
    channel: view.getUint8(0),
    token: view.getBigUint64(1),
    sequence: view.getUint32(9),
    ack: view.getUint32(13),
    ackBitfield: view.getUint32(17),
  };
}
