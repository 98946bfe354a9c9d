import { formatIpv4, parseIpv4 } from '../../../shared/roomCode/ipv4';
import type { InterfaceAddressLike, NetworkInterfacesLike } from '../../base/networkInterfacesLike';

// Discovery's users name the interface shape through discovery; its definition sits in main/base.
export type { InterfaceAddressLike, NetworkInterfacesLike };

/** An IPv4 subnet as network address and mask, both 32-bit unsigned. */
export interface Ipv4Subnet {
  readonly network: number;
  readonly mask: number;
}

/** The limited broadcast address, sent to in addition to each interface's directed broadcast. */
export const LIMITED_BROADCAST = '255.255.255.255';

/** Shortest prefix trusted as a LAN: a bogus /0 mask must not make the whole internet local or a target. */
const MIN_CONNECTED_PREFIX = 8;

const LOOPBACK: Ipv4Subnet = { network: 0x7f000000, mask: 0xff000000 };

function isIpv4(entry: InterfaceAddressLike): boolean {
  return entry.family === 'IPv4' || entry.family === 4;
}

function prefixLength(mask: number): number {
  let bits = 0;
  for (let probe = 0x80000000; probe > 0 && (mask & probe) !== 0; probe >>>= 1) bits += 1;
  return bits;
}

function* ipv4Entries(
  interfaces: NetworkInterfacesLike,
): Generator<{ address: number; mask: number; internal: boolean }> {
  for (const entries of Object.values(interfaces)) {
    for (const entry of entries ?? []) {
      if (!isIpv4(entry)) continue;
      const address = parseIpv4(entry.address);
      const mask = parseIpv4(entry.netmask);
      if (address === undefined || mask === undefined) continue;
      yield { address, mask, internal: entry.internal };
    }
  }
}

/**
 * Where a discovery round is sent: the directed broadcast (address | ~netmask) of every non-internal IPv4
 * interface, skipping /31 and /32 (VPN adapters often carry /32, whose "broadcast" is the host itself), then
 * 255.255.255.255. Node lists only interfaces that are up. Pure: pass `os.networkInterfaces()`.
 */
export function defaultBroadcastTargets(
  interfaces: NetworkInterfacesLike,
  options: { includeLimitedBroadcast?: boolean } = {},
): string[] {
  const targets = new Set<string>();
  for (const { address, mask, internal } of ipv4Entries(interfaces)) {
    const prefix = prefixLength(mask);
    if (internal || prefix > 30 || prefix < MIN_CONNECTED_PREFIX) continue;
    targets.add(formatIpv4((address | ~mask) >>> 0));
  }
  if (options.includeLimitedBroadcast ?? true) targets.add(LIMITED_BROADCAST);
  return [...targets];
}

/** Every IPv4 subnet this machine is directly connected to, loopback included. */
export function connectedSubnets(interfaces: NetworkInterfacesLike): Ipv4Subnet[] {
  const subnets: Ipv4Subnet[] = [LOOPBACK];
  for (const { address, mask } of ipv4Entries(interfaces)) {
    if (prefixLength(mask) < MIN_CONNECTED_PREFIX) continue;
    subnets.push({ network: (address & mask) >>> 0, mask });
  }
  return subnets;
}

/** Whether an address (IPv4, or IPv4-mapped IPv6) lies on one of the subnets. */
export function isOnSubnets(address: string, subnets: readonly Ipv4Subnet[]): boolean {
  const value = parseIpv4(address.startsWith('::ffff:') ? address.slice(7) : address);
  if (value === undefined) return false;
  return subnets.some((subnet) => (value & subnet.mask) >>> 0 === subnet.network);
}
