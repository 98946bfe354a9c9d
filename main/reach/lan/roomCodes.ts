import type { NetworkInterfacesLike } from '../../net/discovery';
import { encode, encodeShortCode, parseIpv4, type ShortCodeUnavailable } from '../../../shared/roomCode';
import { interfaceOf, isVpnInterface } from './lanAddresses';

/** Why a room shows only its full code: the short code's reasons, plus a VPN address or one on no interface. */
export type ShortCodeMissing = ShortCodeUnavailable | 'vpn' | 'not-on-interface';

/** The codes a hosted room shows: the short LAN code when the guests' networks can complete it, and the full one. */
export interface RoomCodes {
  /** The full gale.net code (what the reference decodes). */
  readonly code: string;
  readonly shortCode: string | null;
  /** Why there is no short code; null when there is one. */
  readonly shortCodeMissing: ShortCodeMissing | null;
}

/**
 * The codes for a room advertised at `address`:`port`. The short code needs the netmask of the interface that
 * holds the address (so a guest on the same subnet can complete it); an address on a VPN overlay gets none,
 * because guests reach it over the overlay, not from a LAN prefix of their own.
 */
export function roomCodesFor(address: string, port: number, interfaces: NetworkInterfacesLike): RoomCodes {
  const code = encode(address, port);
  const entry = interfaceOf(interfaces, address);
  if (!entry) return { code, shortCode: null, shortCodeMissing: 'not-on-interface' };
  if (isVpnInterface(entry.interfaceName, address)) return { code, shortCode: null, shortCodeMissing: 'vpn' };
  const short = encodeShortCode(address, entry.netmask, port);
  return short.ok
    ? { code, shortCode: short.code, shortCodeMissing: null }
    : { code, shortCode: null, shortCodeMissing: short.reason };
}

/**
 * The short code a guest shows for the room it joined at `host`:`port`: the code of that address under the netmask
 * of the guest's own interface on the host's subnet, which on a LAN (host and guests share the netmask) is the
 * code the host shows. Null when no interface of the guest is on that subnet (a routed or internet join), on a VPN
 * overlay (the host shows none there either), or when the address has no short code.
 */
export function guestShortCode(host: string, port: number, interfaces: NetworkInterfacesLike): string | null {
  const ip = parseIpv4(host);
  if (ip === undefined) return null;
  for (const [interfaceName, entries] of Object.entries(interfaces)) {
    for (const e of entries ?? []) {
      if (!(e.family === 'IPv4' || e.family === 4)) continue;
      const own = parseIpv4(e.address);
      const mask = parseIpv4(e.netmask);
      if (own === undefined || mask === undefined || (own & mask) >>> 0 !== (ip & mask) >>> 0) continue;
      if (isVpnInterface(interfaceName, host)) return null;
      const short = encodeShortCode(host, e.netmask, port);
      return short.ok ? short.code : null;
    }
  }
  return null;
}
