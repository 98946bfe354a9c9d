import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/** One of this machine's interface addresses with its prefix, as `os.networkInterfaces()` gives `cidr`. */
export interface LocalSubnet {
  /** `address/prefix`, e.g. 192.168.1.20/24. */
  readonly cidr: string;
}

/** Ranges a peer's candidate may name only when we sit on that subnet ourselves (RFC 6890's special ranges). */
const SCOPED: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['10.0.0.0', 8, 'ipv4'], // private
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local
  ['::1', 128, 'ipv6'], // loopback
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
];

const scoped = new BlockList();
for (const [network, prefix, family] of SCOPED) scoped.addSubnet(network, prefix, family);

const familyOf = (address: string): 'ipv4' | 'ipv6' | undefined =>
  isIP(address) === 4 ? 'ipv4' : isIP(address) === 6 ? 'ipv6' : undefined;

/**
 * Whether we may send ICE checks to a peer's candidate `address`: any public address, but a loopback, private or
 * link-local one only when one of `local` is on that subnet (a guest on our LAN). Otherwise a code-holder's sealed
 * parameters could point our checks at our own machine or network for the whole connect timeout.
 */
export function candidateInScope(address: string, local: readonly LocalSubnet[]): boolean {
  const family = familyOf(address);
  if (family === undefined) return false;
  if (!scoped.check(address, family)) return true;
  return local.some(({ cidr }) => {
    const at = cidr.lastIndexOf('/');
    const network = cidr.slice(0, at);
    const prefix = Number(cidr.slice(at + 1));
    if (familyOf(network) !== family || !Number.isInteger(prefix)) return false;
    const subnet = new BlockList();
    subnet.addSubnet(network, prefix, family);
    return subnet.check(address, family);
  });
}

/** This machine's interface subnets, as {@link candidateInScope} takes them. */
export function localSubnets(): LocalSubnet[] {
  return Object.values(networkInterfaces()).flatMap((addresses) =>
    (addresses ?? []).flatMap((entry) => (entry.cidr ? [{ cidr: entry.cidr }] : [])),
  );
}
