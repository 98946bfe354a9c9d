import { isIPv4, isIPv6 } from 'node:net';

/** What the rendezvous' limits count a source address under. */
export interface AddressKeys {
  /** One subscriber: an IPv4 address, or an IPv6 /64 (one home network holds a whole /64). */
  readonly address: string;
  /** Its neighbourhood, for the wider caps: an IPv4 /24, or an IPv6 /56 (a typical delegated prefix). */
  readonly prefix: string;
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted quad becomes the last two). */
function ipv6Groups(text: string): number[] {
  let tail: number[] = [];
  let head = text;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail = [(a << 8) | b, (c << 8) | d];
    head = text.slice(0, dotted.index).replace(/:$/, '');
    if (head.endsWith(':')) head += ':';
  }
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const before = parse(left);
  const after = [...parse(right), ...tail];
  const zeros = right === undefined ? [] : new Array<number>(8 - before.length - after.length).fill(0);
  return [...before, ...zeros, ...after];
}

const hex = (groups: number[]) => groups.map((g) => g.toString(16)).join(':');

/**
 * The keys of a source address as the transport reports it: IPv4 (also IPv4-mapped IPv6) per address and /24,
 * IPv6 per /64 and /56, so one home's /64 counts as one address however many it uses. Anything else (an unknown
 * address) is its own key for both.
 */
export function addressKeysOf(source: string): AddressKeys {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(source)?.[1];
  const v4 = mapped ?? source;
  if (isIPv4(v4)) return { address: v4, prefix: `${v4.slice(0, v4.lastIndexOf('.'))}.0/24` };
  if (!isIPv6(source)) return { address: source, prefix: source };
  const groups = ipv6Groups(source.toLowerCase());
  return {
    address: `${hex(groups.slice(0, 4))}::/64`,
    prefix: `${hex([...groups.slice(0, 3), groups[3]! & 0xff00])}::/56`,
  };
}
