import { networkInterfaces } from 'node:os';
import type { NetworkInterfacesLike } from '../../base/networkOptions';
import { connectedSubnets, isOnSubnets, type Ipv4Subnet } from './interfaceTargets';

/** How long the interface list is trusted before it is read again (interfaces come and go: Wi-Fi, VPN). */
const REFRESH_MS = 2000;

/**
 * Returns a predicate accepting only loopback and directly connected subnets, re-reading the interface list
 * at most every {@link REFRESH_MS} so a flood of foreign packets does not become a flood of system calls.
 */
export function createConnectedSourceFilter(
  now: () => number,
  readInterfaces: () => NetworkInterfacesLike = networkInterfaces,
): (address: string) => boolean {
  let subnets: Ipv4Subnet[] = [];
  let readAt = Number.NEGATIVE_INFINITY;
  return (address) => {
    if (now() - readAt >= REFRESH_MS) {
      try {
        subnets = connectedSubnets(readInterfaces());
      } catch {
        subnets = connectedSubnets({});
      }
      readAt = now();
    }
    return isOnSubnets(address, subnets);
  };
}

/** The searcher's reply filter: connected sources, plus any unicast target the caller asked explicitly. */
export function createReplySourceFilter(
  targets: readonly string[],
  now: () => number,
  readInterfaces: () => NetworkInterfacesLike = networkInterfaces,
): (address: string) => boolean {
  const connected = createConnectedSourceFilter(now, readInterfaces);
  const explicit = new Set(targets);
  return (address) => explicit.has(address) || connected(address);
}
