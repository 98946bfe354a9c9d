import type { NetworkInterfacesLike } from '../../net/discovery';

/** One IPv4 address of this machine that LAN players could reach. */
export interface LanAddress {
  interfaceName: string;
  address: string;
  /** The interface's netmask, which says how much of the address a short code must carry. */
  netmask: string;
  /** The interface is a VPN overlay (Tailscale, ZeroTier, WireGuard, OpenVPN…), judged by its name or range. */
  vpn: boolean;
}

const PRIVATE = [/^192\.168\./, /^10\./, /^172\.(1[6-9]|2\d|3[01])\./];

/** Interface names VPN overlays use: Linux/macOS device prefixes and the adapter names Windows shows. */
const VPN_NAME =
  /^(tun|tap|wg|utun|ppp|ipsec|tailscale|zt|zerotier|ham|nordlynx|proton)|tailscale|zerotier|wireguard|openvpn|hamachi|radmin|vpn/i;

/** Tailscale's CGNAT range, 100.64.0.0/10: an overlay address even on an interface with a plain name. */
const CGNAT = /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./;

/** Whether an interface (by name, or its address) is a VPN overlay rather than the LAN. */
export function isVpnInterface(interfaceName: string, address: string): boolean {
  return VPN_NAME.test(interfaceName) || CGNAT.test(address);
}

/** This machine's up, non-internal IPv4 addresses: private LAN ranges first, then other LANs, VPN overlays last. */
export function lanAddresses(interfaces: NetworkInterfacesLike): LanAddress[] {
  const out: LanAddress[] = [];
  for (const [interfaceName, entries] of Object.entries(interfaces)) {
    for (const e of entries ?? []) {
      const v4 = e.family === 'IPv4' || e.family === 4;
      if (!v4 || e.internal || e.address.startsWith('169.254.')) continue;
      out.push({
        interfaceName,
        address: e.address,
        netmask: e.netmask,
        vpn: isVpnInterface(interfaceName, e.address),
      });
    }
  }
  const rank = (a: LanAddress) => (a.vpn ? 2 : PRIVATE.some((re) => re.test(a.address)) ? 0 : 1);
  return out.sort((a, b) => rank(a) - rank(b));
}

/** The address to put in a room code: the best LAN address, or loopback on a machine with none. */
export function pickAdvertiseAddress(interfaces: NetworkInterfacesLike): string {
  return lanAddresses(interfaces)[0]?.address ?? '127.0.0.1';
}

/** The interface entry (internal ones included) that holds an address, for its name and netmask. */
export function interfaceOf(
  interfaces: NetworkInterfacesLike,
  address: string,
): { interfaceName: string; netmask: string; internal: boolean } | undefined {
  for (const [interfaceName, entries] of Object.entries(interfaces)) {
    for (const e of entries ?? []) {
      if ((e.family === 'IPv4' || e.family === 4) && e.address === address) {
        return { interfaceName, netmask: e.netmask, internal: e.internal };
      }
    }
  }
  return undefined;
}
