import type { NetworkInterfacesLike } from '../net/discovery';

/** One IPv4 address of this machine that LAN players could reach. */
export interface LanAddress {
  interfaceName: string;
  address: string;
}

const PRIVATE = [/^192\.168\./, /^10\./, /^172\.(1[6-9]|2\d|3[01])\./];

/** This machine's up, non-internal IPv4 addresses, private LAN ranges first (VPN/CGNAT after). */
export function lanAddresses(interfaces: NetworkInterfacesLike): LanAddress[] {
  const out: LanAddress[] = [];
  for (const [interfaceName, entries] of Object.entries(interfaces)) {
    for (const e of entries ?? []) {
      const v4 = e.family === 'IPv4' || e.family === 4;
      if (v4 && !e.internal && !e.address.startsWith('169.254.')) out.push({ interfaceName, address: e.address });
    }
  }
  const rank = (a: LanAddress) => (PRIVATE.some((re) => re.test(a.address)) ? 0 : 1);
  return out.sort((a, b) => rank(a) - rank(b));
}

/** The address to put in a room code: the first LAN address, or loopback on a machine with none. */
export function pickAdvertiseAddress(interfaces: NetworkInterfacesLike): string {
  return lanAddresses(interfaces)[0]?.address ?? '127.0.0.1';
}
