// The page learns where the WebSocket binding is from its URL hash: `#ws=PORT&secret=...`.
// The hash never reaches an HTTP server, so the secret stays out of request logs.

/** Where the WebSocket binding listens and the secret it requires. */
export interface BindingLocation {
  readonly port: number;
  readonly secret: string;
}

// base64url of 32 random bytes is 43 chars; accept any reasonably long url-safe token.
const SECRET_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** The hash fragment (with `#`) that points a page at the binding. */
export function formatBindingHash(location: BindingLocation): string {
  return `#ws=${location.port}&secret=${encodeURIComponent(location.secret)}`;
}

/** Reads the binding location from a URL hash; null when absent or malformed. */
export function parseBindingHash(hash: string): BindingLocation | null {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const params = new Map<string, string>();
  for (const pair of body.split('&')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    try {
      params.set(pair.slice(0, eq), decodeURIComponent(pair.slice(eq + 1)));
    } catch {
      return null;
    }
  }
  const portText = params.get('ws');
  const secret = params.get('secret');
  if (portText === undefined || secret === undefined) return null;
  if (!/^\d{1,5}$/.test(portText)) return null;
  const port = Number(portText);
  if (port < 1 || port > 65535) return null;
  if (!SECRET_PATTERN.test(secret)) return null;
  return { port, secret };
}
