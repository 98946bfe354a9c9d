import { lookup as dnsLookup } from 'node:dns/promises';
import { encode } from '../../shared/roomCode/encode';
import { parseIpv4 } from '../../shared/roomCode/ipv4';
import { RoomCodeError, RoomCodeErrorReason } from '../../shared/roomCode/roomCodeError';
import { DEFAULT_ROOM_CODE_FORMAT, type RoomCodeFormat } from '../../shared/roomCode/roomCodeFormat';

/** Resolves a host name to one IPv4 address, as `dns.lookup(name, { family: 4 })` does. */
export type Ipv4Lookup = (hostname: string) => Promise<string>;

const systemLookup: Ipv4Lookup = async (hostname) => (await dnsLookup(hostname, { family: 4 })).address;

/**
 * The IPv4 address a room code should carry for `hostOrName`: a dotted quad is used as is, anything else is
 * resolved (the reference resolves names too). Fails with a RoomCodeError ('invalid-host') naming the host.
 */
export async function resolveRoomHost(hostOrName: string, lookup: Ipv4Lookup = systemLookup): Promise<string> {
  if (typeof hostOrName !== 'string' || hostOrName.trim() === '') {
    throw new RoomCodeError(RoomCodeErrorReason.INVALID_HOST, 'a host name or IPv4 address is required');
  }
  const host = hostOrName.trim();
  if (parseIpv4(host) !== undefined) return host;
  let address: string;
  try {
    address = await lookup(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RoomCodeError(
      RoomCodeErrorReason.INVALID_HOST,
      `cannot resolve ${JSON.stringify(host)} to an IPv4 address${code ? ` (${code})` : ''}`,
    );
  }
  if (parseIpv4(address) === undefined) {
    throw new RoomCodeError(
      RoomCodeErrorReason.INVALID_HOST,
      `${JSON.stringify(host)} resolved to ${JSON.stringify(address)}, which is not an IPv4 address`,
    );
  }
  return address;
}

/** Encodes a room code for a host name or IPv4 address, resolving names first (main process only). */
export async function encodeRoomCodeForHost(
  hostOrName: string,
  port: number,
  format: RoomCodeFormat = DEFAULT_ROOM_CODE_FORMAT,
  lookup: Ipv4Lookup = systemLookup,
): Promise<string> {
  // Refuse a bad port before any name lookup, with encode's own error.
  encode('0.0.0.0', port, format);
  return encode(await resolveRoomHost(hostOrName, lookup), port, format);
}
