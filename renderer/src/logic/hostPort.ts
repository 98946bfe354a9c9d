/** A parsed "host:port" the player typed, or why it is not one. */
export type HostPortResult =
  | { readonly ok: true; readonly host: string; readonly port: number }
  | { readonly ok: false; readonly message: string };

/**
 * Reads "192.168.1.20:9000", "party-pc:9000" or just "192.168.1.20" (then `defaultPort`). Pure. The backend
 * resolves names and validates again; this only catches what the player can fix while typing.
 */
export function parseHostPort(text: string, defaultPort: number): HostPortResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: 'Enter the host’s address, like 192.168.1.20:9000.' };
  if (/[\s/\\@]/.test(trimmed)) return { ok: false, message: 'An address has no spaces or slashes.' };
  const colon = trimmed.lastIndexOf(':');
  if (colon === -1) return { ok: true, host: trimmed, port: defaultPort };
  const host = trimmed.slice(0, colon);
  const portText = trimmed.slice(colon + 1);
  if (host === '' || host.includes(':')) return { ok: false, message: 'Write the address as host:port.' };
  if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
    return { ok: false, message: `“${portText}” is not a port: use a number from 1 to 65535.` };
  }
  return { ok: true, host, port: Number(portText) };
}
