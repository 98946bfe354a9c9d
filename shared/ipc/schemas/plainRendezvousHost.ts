/** The dotted-quad's four numbers, or undefined when `text` is not one. */
function ipv4Parts(text: string): number[] | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  const parts = match?.slice(1).map(Number);
  return parts && parts.every((part) => part <= 255) ? parts : undefined;
}

/** Loopback, private (RFC 1918), link-local and documentation (RFC 5737, where the labs live) IPv4 ranges. */
function labIpv4([a, b, c]: number[]): boolean {
  return (
    a === 127 ||
    a === 10 ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    (a === 192 && b === 0 && c === 2) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  );
}

/** The first 16-bit group of an IPv6 address, or undefined when `text` is not one (`::1` and `::ffff:v4` apart). */
function firstGroup(text: string): number | undefined {
  if (!/^[0-9a-f:.]+$/.test(text) || !text.includes(':')) return undefined;
  const first = text.split(':')[0]!;
  return first === '' ? 0 : /^[0-9a-f]{1,4}$/.test(first) ? parseInt(first, 16) : undefined;
}

/**
 * Whether a rendezvous on `host` (a URL's host: a name, an IPv4 address or a [bracketed] IPv6 one) may be spoken
 * to over plain `ws://`: only loopback, private, link-local and documentation (lab) addresses, where the room's
 * secret and the TURN credentials cannot cross the internet in clear. Every name but `localhost` needs `wss://`.
 */
export function plainRendezvousHostAllowed(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const v4 = ipv4Parts(name);
  if (v4) return labIpv4(v4);
  if (name === '::1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(name);
  if (mapped) return labIpv4(ipv4Parts(mapped[1]!) ?? [0]);
  const group = firstGroup(name);
  if (group === undefined || group === 0) return false;
  // fc00::/7 (unique local), fe80::/10 (link-local), 2001:db8::/32 (documentation).
  return (group & 0xfe00) === 0xfc00 || (group & 0xffc0) === 0xfe80 || (group === 0x2001 && /^2001:0*db8:/.test(name));
}
