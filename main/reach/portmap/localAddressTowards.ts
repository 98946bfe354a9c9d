import { parseIpv4 } from '../../../shared/roomCode/ipv4';
import type { NetworkInterfacesLike } from '../../base/networkOptions';

/**
 * This machine's IPv4 address on the subnet of `gateway` (the address the router sees our requests come from, which
 * PCP and UPnP must name), else the first non-internal IPv4 address; undefined when there is none. Pure.
 */
export function localAddressTowards(gateway: string, interfaces: NetworkInterfacesLike): string | undefined {
  const target = parseIpv4(gateway);
  let fallback: string | undefined;
  for (const entries of Object.values(interfaces)) {
    for (const entry of entries ?? []) {
      if (entry.family !== 'IPv4' && entry.family !== 4) continue;
      const address = parseIpv4(entry.address);
      const mask = parseIpv4(entry.netmask);
      if (address === undefined || mask === undefined) continue;
      if (target !== undefined && (address & mask) >>> 0 === (target & mask) >>> 0) return entry.address;
      if (!entry.internal) fallback ??= entry.address;
    }
  }
  return fallback;
}
