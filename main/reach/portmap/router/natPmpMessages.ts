import { formatIpv4 } from '../../../../shared/roomCode/ipv4';

/** NAT-PMP (RFC 6886) constants: the router listens on UDP 5351; version 0; UDP mapping opcode 1. */
export const NatPmp = {
  PORT: 5351,
  VERSION: 0,
  OP_EXTERNAL_ADDRESS: 0,
  OP_MAP_UDP: 1,
  /** A response's opcode is the request's plus 128 (§3.2, §3.3). */
  RESPONSE_BIT: 128,
} as const;

/** A NAT-PMP result code (§3.5), 0 being success. */
export type NatPmpResultCode = number;

/** The answer to an external address request (§3.2): the router's public IPv4 address. */
export interface NatPmpExternalAddress {
  readonly kind: 'external-address';
  readonly resultCode: NatPmpResultCode;
  readonly epochSeconds: number;
  readonly externalAddress: string;
}

/** The answer to a mapping request (§3.3): the port the router chose and the lifetime it granted. */
export interface NatPmpMapResponse {
  readonly kind: 'map';
  readonly resultCode: NatPmpResultCode;
  readonly epochSeconds: number;
  readonly internalPort: number;
  readonly externalPort: number;
  readonly lifetimeSeconds: number;
}

/** The 2-byte external address request of §3.2: version 0, opcode 0. */
export function encodeNatPmpExternalAddressRequest(): Uint8Array {
  return Uint8Array.of(NatPmp.VERSION, NatPmp.OP_EXTERNAL_ADDRESS);
}

/**
 * The 12-byte UDP mapping request of §3.3: version, opcode 1, 16 reserved bits, internal port, suggested external
 * port, lifetime in seconds. Lifetime 0 with external port 0 deletes the mapping (§3.4).
 */
export function encodeNatPmpMapRequest(
  internalPort: number,
  suggestedExternalPort: number,
  lifetimeSeconds: number,
): Uint8Array {
  checkPort(internalPort, 'internal port', false);
  checkPort(suggestedExternalPort, 'suggested external port', true);
  if (!Number.isInteger(lifetimeSeconds) || lifetimeSeconds < 0 || lifetimeSeconds > 0xffffffff) {
    throw new RangeError(`NAT-PMP lifetime must be 0..2^32-1 seconds, got ${lifetimeSeconds}`);
  }
  const out = new Uint8Array(12);
  const view = new DataView(out.buffer);
  view.setUint8(0, NatPmp.VERSION);
  view.setUint8(1, NatPmp.OP_MAP_UDP);
  view.setUint16(2, 0);
  view.setUint16(4, internalPort);
  view.setUint16(6, suggestedExternalPort);
  view.setUint32(8, lifetimeSeconds);
  return out;
}

/**
 * Reads a NAT-PMP response (§3.2: 12 bytes; §3.3: 16 bytes); null for anything else (another version, a request,
 * an opcode we never send, a short datagram). A non-zero result code still parses: the caller reports it.
 */
export function parseNatPmpResponse(datagram: Uint8Array): NatPmpExternalAddress | NatPmpMapResponse | null {
  if (datagram.length < 8) return null;
  const view = new DataView(datagram.buffer, datagram.byteOffset, datagram.byteLength);
  if (view.getUint8(0) !== NatPmp.VERSION) return null;
  const op = view.getUint8(1);
  const resultCode = view.getUint16(2);
  const epochSeconds = view.getUint32(4);
  if (op === NatPmp.RESPONSE_BIT + NatPmp.OP_EXTERNAL_ADDRESS) {
    if (datagram.length < 12) return null;
    return { kind: 'external-address', resultCode, epochSeconds, externalAddress: formatIpv4(view.getUint32(8)) };
  }
  if (op === NatPmp.RESPONSE_BIT + NatPmp.OP_MAP_UDP) {
    if (datagram.length < 16) return null;
    return {
      kind: 'map',
      resultCode,
      epochSeconds,
      internalPort: view.getUint16(8),
      externalPort: view.getUint16(10),
      lifetimeSeconds: view.getUint32(12),
    };
  }
  return null;
}

/** The words of a NAT-PMP result code (§3.5), for the log. */
export function natPmpResultText(code: NatPmpResultCode): string {
  const names = [
    'success',
    'unsupported version',
    'not authorized or refused',
    'network failure',
    'out of resources',
    'unsupported opcode',
  ];
  return `${names[code] ?? 'unknown result'} (${code})`;
}

function checkPort(port: number, what: string, zeroAllowed: boolean): void {
  if (!Number.isInteger(port) || port < (zeroAllowed ? 0 : 1) || port > 65535) {
    throw new RangeError(`NAT-PMP ${what} must be ${zeroAllowed ? 0 : 1}..65535, got ${port}`);
  }
}
