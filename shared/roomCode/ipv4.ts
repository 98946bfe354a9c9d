const DOTTED_QUAD = /^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})$/;

/**
 * The 32-bit value of a strict dotted-quad IPv4 address, or undefined.
 * Leading zeros are refused because some resolvers read "010" as octal: the code must not depend on which.
 */
export function parseIpv4(text: string): number | undefined {
  const match = DOTTED_QUAD.exec(text);
  if (!match) return undefined;
  let value = 0;
  for (let part = 1; part <= 4; part += 1) {
    const octet = Number(match[part]);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

/** Dotted-quad text of a 32-bit unsigned value. */
export function formatIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.');
}
