import type { NetworkInterfacesLike } from '../net/discovery';
import { formatIpv4, parseIpv4 } from '../../shared/roomCode/ipv4';
import type { InterfaceReport } from '../../shared/netcheck/report';

function leadingOnes(mask: number): number {
  let bits = 0;
  for (let probe = 0x80000000; probe > 0 && (mask & probe) !== 0; probe >>>= 1) bits += 1;
  return bits;
}

/**
 * Every IPv4 address of this machine with the directed broadcast discovery searches on it, or the reason it is
 * skipped, by the same rules as `defaultBroadcastTargets` (internal, /31–/32 and masks shorter than /8 skipped).
 * Pure: pass `os.networkInterfaces()`.
 */
export function describeInterfaces(interfaces: NetworkInterfacesLike): InterfaceReport[] {
  const rows: InterfaceReport[] = [];
  for (const [name, entries] of Object.entries(interfaces)) {
    for (const entry of entries ?? []) {
      if (entry.family !== 'IPv4' && entry.family !== 4) continue;
      const address = parseIpv4(entry.address);
      const mask = parseIpv4(entry.netmask);
      const base = { name, address: entry.address, netmask: entry.netmask, internal: entry.internal };
      if (address === undefined || mask === undefined) {
        rows.push({ ...base, prefixLength: null, broadcast: null, skipped: 'unreadable address or netmask' });
        continue;
      }
      const prefixLength = leadingOnes(mask);
      const skipped = entry.internal
        ? 'loopback: only this machine'
        : prefixLength > 30
          ? `a /${prefixLength} address (typical of VPN adapters) has no broadcast address`
          : prefixLength < 8
            ? `a /${prefixLength} mask is too wide to be a LAN`
            : null;
      const broadcast = skipped === null ? formatIpv4((address | ~mask) >>> 0) : null;
      rows.push({ ...base, prefixLength, broadcast, skipped });
    }
  }
  return rows;
}
