/** STUN (RFC 5389) constants for a Binding exchange: the only STUN the network check speaks. */
export const Stun = {
  HEADER_BYTES: 20,
  MAGIC_COOKIE: 0x2112a442,
  BINDING_REQUEST: 0x0001,
  BINDING_SUCCESS: 0x0101,
  ATTR_MAPPED_ADDRESS: 0x0001,
  ATTR_XOR_MAPPED_ADDRESS: 0x0020,
  FAMILY_IPV4: 0x01,
  TRANSACTION_ID_BYTES: 12,
} as const;

/** The address:port a STUN server saw a request come from. */
export interface MappedAddress {
  readonly address: string;
  readonly port: number;
}

/** A Binding request with the given 12-byte transaction id and no attributes. */
export function encodeBindingRequest(transactionId: Uint8Array): Uint8Array {
  if (transactionId.length !== Stun.TRANSACTION_ID_BYTES) throw new RangeError('STUN transaction id must be 12 bytes');
  const out = new Uint8Array(Stun.HEADER_BYTES);
  const view = new DataView(out.buffer);
  view.setUint16(0, Stun.BINDING_REQUEST);
  view.setUint16(2, 0);
  view.setUint32(4, Stun.MAGIC_COOKIE);
  out.set(transactionId, 8);
  return out;
}

/**
 * Reads the mapped address out of a Binding success response to `transactionId`; null for anything else
 * (another transaction, another message, a truncated or malformed datagram, an IPv6 mapping). Untrusted input:
 * every length is checked before it is read.
 */
export function parseBindingResponse(datagram: Uint8Array, transactionId: Uint8Array): MappedAddress | null {
  if (datagram.length < Stun.HEADER_BYTES) return null;
  const view = new DataView(datagram.buffer, datagram.byteOffset, datagram.byteLength);
  if (view.getUint16(0) !== Stun.BINDING_SUCCESS || view.getUint32(4) !== Stun.MAGIC_COOKIE) return null;
  const length = view.getUint16(2);
  if (length % 4 !== 0 || Stun.HEADER_BYTES + length > datagram.length) return null;
  for (let i = 0; i < Stun.TRANSACTION_ID_BYTES; i += 1) if (datagram[8 + i] !== transactionId[i]) return null;
  let plain: MappedAddress | null = null;
  let offset = Stun.HEADER_BYTES;
  const end = Stun.HEADER_BYTES + length;
  while (offset + 4 <= end) {
    const type = view.getUint16(offset);
    const size = view.getUint16(offset + 2);
    const value = offset + 4;
    if (value + size > end) return null;
    if (type === Stun.ATTR_XOR_MAPPED_ADDRESS) return readAddress(view, value, size, true);
    if (type === Stun.ATTR_MAPPED_ADDRESS) plain = readAddress(view, value, size, false);
    offset = value + Math.ceil(size / 4) * 4; // attributes are padded to 4 bytes
  }
  return plain;
}

function readAddress(view: DataView, at: number, size: number, xor: boolean): MappedAddress | null {
  if (size !== 8 || view.getUint8(at + 1) !== Stun.FAMILY_IPV4) return null;
  const port = view.getUint16(at + 2) ^ (xor ? Stun.MAGIC_COOKIE >>> 16 : 0);
  const raw = (view.getUint32(at + 4) ^ (xor ? Stun.MAGIC_COOKIE : 0)) >>> 0;
  const address = [raw >>> 24, (raw >>> 16) & 0xff, (raw >>> 8) & 0xff, raw & 0xff].join('.');
  return port === 0 ? null : { address, port };
}
