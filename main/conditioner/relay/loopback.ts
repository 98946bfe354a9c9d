import { BlockList, isIPv4, isIPv6 } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IP literal with its family; the relay never resolves names, so it cannot be steered anywhere unexpected. */
export interface HostLiteral {
  address: string;
  family: 'IPv4' | 'IPv6';
}

/** Turns 'localhost' or an IP literal into a HostLiteral; throws a clear error for anything else. */
export function parseHostLiteral(host: string, what: string): HostLiteral {
  if (host === 'localhost') return { address: '127.0.0.1', family: 'IPv4' };
  if (isIPv4(host)) return { address: host, family: 'IPv4' };
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIPv6(bare)) return { address: canonicalIPv6(bare), family: 'IPv6' };
  throw new TypeError(`${what} must be an IP address or 'localhost', got ${JSON.stringify(host)}`);
}

/**
 * The compressed form the kernel reports in a datagram's source (e.g. '0:0:0:0:0:0:0:1' → '::1'), so replies can
 * be matched against the target by string. The WHATWG URL parser already implements RFC 5952 compression.
 */
function canonicalIPv6(address: string): string {
  if (address.includes('.') || address.includes('%')) return address.toLowerCase(); // mapped IPv4 / zone id: as given
  try {
    return new URL(`udp://[${address}]`).hostname.slice(1, -1);
  } catch {
    return address.toLowerCase();
  }
}

/** True for 127.0.0.0/8, ::1 and IPv4-mapped loopback (::ffff:127.x.x.x). */
export function isLoopbackAddress(host: HostLiteral): boolean {
  if (host.family === 'IPv4') return LOOPBACK.check(host.address, 'ipv4');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(host.address);
  if (mapped?.[1] !== undefined) return LOOPBACK.check(mapped[1], 'ipv4');
  return LOOPBACK.check(host.address, 'ipv6');
}
