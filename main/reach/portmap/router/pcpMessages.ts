import { formatIpv4, parseIpv4 } from '../../../../shared/roomCode/ipv4';

/** PCP (RFC 6887) constants: same server port as NAT-PMP, version 2, the ANNOUNCE and MAP opcodes, UDP. */
export const Pcp = {
  PORT: 5351,
  VERSION: 2,
  OP_ANNOUNCE: 0,
  OP_MAP: 1,
  /** The R bit (§7.1, §7.2): set on responses. */
  RESPONSE_BIT: 0x80,
  HEADER_BYTES: 24,
  MAP_BYTES: 36,
  NONCE_BYTES: 12,
  PROTOCOL_UDP: 17,
} as const;

/** A PCP result code (§7.4), 0 being SUCCESS. */
export type PcpResultCode = number;

/** The fields of a MAP request (§11.1) this client fills; IPv4 only. */
export interface PcpMapRequest {
  /** The address the client sends from, as the server will see it (else ADDRESS_MISMATCH). */
  readonly clientAddress: string;
  readonly nonce: Uint8Array;
  readonly internalPort: number;
  /** 0: no preference. */
  readonly suggestedExternalPort: number;
  /** 0 deletes the mapping (§15). */
  readonly lifetimeSeconds: number;
}

/** A PCP response (§7.2), with the MAP fields (§11.1) when it answers a MAP. */
export interface PcpResponse {
  readonly opcode: number;
  readonly resultCode: PcpResultCode;
  readonly lifetimeSeconds: number;
  readonly epochSeconds: number;
  readonly map?: {
    readonly nonce: Uint8Array;
    readonly protocol: number;
    readonly internalPort: number;
    readonly externalPort: number;
    /** Dotted quad for an IPv4-mapped address; undefined for a native IPv6 one. */
    readonly externalAddress: string | undefined;
  };
}

/** The 24-byte ANNOUNCE request (§14.1): the common header with opcode 0 and lifetime 0; a cheap "is PCP here?". */
export function encodePcpAnnounceRequest(clientAddress: string): Uint8Array {
  const out = new Uint8Array(Pcp.HEADER_BYTES);
  writeHeader(out, Pcp.OP_ANNOUNCE, 0, clientAddress);
  return out;
}

/**
 * The 60-byte MAP request: the common request header (§7.1: version, R=0 + opcode, 16 reserved bits, requested
 * lifetime, the client's address as IPv4-mapped IPv6 per §5) then the MAP opcode data (§11.1: 96-bit nonce,
 * protocol, 24 reserved bits, internal port, suggested external port, suggested external address ::ffff:0.0.0.0).
 */
export function encodePcpMapRequest(request: PcpMapRequest): Uint8Array {
  if (request.nonce.length !== Pcp.NONCE_BYTES) throw new RangeError('PCP mapping nonce must be 12 bytes');
  if (!Number.isInteger(request.internalPort) || request.internalPort < 1 || request.internalPort > 65535) {
    throw new RangeError(`PCP internal port must be 1..65535, got ${request.internalPort}`);
  }
  if (
    !Number.isInteger(request.suggestedExternalPort) ||
    request.suggestedExternalPort < 0 ||
    request.suggestedExternalPort > 65535
  ) {
    throw new RangeError(`PCP suggested external port must be 0..65535, got ${request.suggestedExternalPort}`);
  }
  const out = new Uint8Array(Pcp.HEADER_BYTES + Pcp.MAP_BYTES);
  writeHeader(out, Pcp.OP_MAP, request.lifetimeSeconds, request.clientAddress);
  const view = new DataView(out.buffer);
  const at = Pcp.HEADER_BYTES;
  out.set(request.nonce, at);
  view.setUint8(at + 12, Pcp.PROTOCOL_UDP);
  view.setUint16(at + 16, request.internalPort);
  view.setUint16(at + 18, request.suggestedExternalPort);
  writeMappedIpv4(out, at + 20, 0); // no preferred external address
  return out;
}

/**
 * Reads a PCP response; null for anything else (a NAT-PMP answer, a request, a short datagram, a MAP response
 * without its opcode data). A non-zero result code still parses: UNSUPP_VERSION is how a NAT-PMP-only router
 * may answer, and the caller reports the rest.
 */
export function parsePcpResponse(datagram: Uint8Array): PcpResponse | null {
  if (datagram.length < Pcp.HEADER_BYTES) return null;
  const view = new DataView(datagram.buffer, datagram.byteOffset, datagram.byteLength);
  if (view.getUint8(0) !== Pcp.VERSION) return null;
  const rOpcode = view.getUint8(1);
  if ((rOpcode & Pcp.RESPONSE_BIT) === 0) return null;
  const opcode = rOpcode & 0x7f;
  const head = {
    opcode,
    resultCode: view.getUint8(3),
    lifetimeSeconds: view.getUint32(4),
    epochSeconds: view.getUint32(8),
  };
  if (opcode !== Pcp.OP_MAP) return head;
  if (datagram.length < Pcp.HEADER_BYTES + Pcp.MAP_BYTES) return null;
  const at = Pcp.HEADER_BYTES;
  return {
    ...head,
    map: {
      nonce: datagram.slice(at, at + Pcp.NONCE_BYTES),
      protocol: view.getUint8(at + 12),
      internalPort: view.getUint16(at + 16),
      externalPort: view.getUint16(at + 18),
      externalAddress: readMappedIpv4(datagram, at + 20),
    },
  };
}

/** The words of a PCP result code (§7.4), for the log. */
export function pcpResultText(code: PcpResultCode): string {
  const names = [
    'SUCCESS',
    'UNSUPP_VERSION',
    'NOT_AUTHORIZED',
    'MALFORMED_REQUEST',
    'UNSUPP_OPCODE',
    'UNSUPP_OPTION',
    'MALFORMED_OPTION',
    'NETWORK_FAILURE',
    'NO_RESOURCES',
    'UNSUPP_PROTOCOL',
    'USER_EX_QUOTA',
    'CANNOT_PROVIDE_EXTERNAL',
    'ADDRESS_MISMATCH',
    'EXCESSIVE_REMOTE_PEERS',
  ];
  return `${names[code] ?? 'unknown result'} (${code})`;
}

function writeHeader(out: Uint8Array, opcode: number, lifetimeSeconds: number, clientAddress: string): void {
  if (!Number.isInteger(lifetimeSeconds) || lifetimeSeconds < 0 || lifetimeSeconds > 0xffffffff) {
    throw new RangeError(`PCP lifetime must be 0..2^32-1 seconds, got ${lifetimeSeconds}`);
  }
  const client = parseIpv4(clientAddress);
  if (client === undefined) throw new RangeError(`PCP client address must be an IPv4 address, got ${clientAddress}`);
  const view = new DataView(out.buffer);
  view.setUint8(0, Pcp.VERSION);
  view.setUint8(1, opcode);
  view.setUint32(4, lifetimeSeconds);
  writeMappedIpv4(out, 8, client);
}

/** §5: an IPv4 address in a 128-bit field is the IPv4-mapped IPv6 address, ten zero bytes, 0xffff, the four octets. */
function writeMappedIpv4(out: Uint8Array, at: number, value: number): void {
  out[at + 10] = 0xff;
  out[at + 11] = 0xff;
  new DataView(out.buffer).setUint32(at + 12, value);
}

function readMappedIpv4(datagram: Uint8Array, at: number): string | undefined {
  for (let i = 0; i < 10; i += 1) if (datagram[at + i] !== 0) return undefined;
  if (datagram[at + 10] !== 0xff || datagram[at + 11] !== 0xff) return undefined;
  const view = new DataView(datagram.buffer, datagram.byteOffset, datagram.byteLength);
  return formatIpv4(view.getUint32(at + 12));
}
