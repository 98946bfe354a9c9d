import { normalize, resolve, sep } from 'node:path';

/**
 * Maps a request path to a file under root, or null when it is malformed or escapes root
 * (`..`, encoded slashes, NUL). `/` serves index.html.
 */
export function resolveStaticPath(root: string, requestPath: string): string | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(requestPath.split('?')[0] ?? '');
  } catch {
    return null;
  }
  if (!pathname.startsWith('/') || pathname.includes('\0') || pathname.includes('\\')) return null;
  const relative = pathname === '/' ? 'index.html' : pathname.slice(1);
  const base = resolve(root);
  const full = resolve(base, normalize(relative));
  return full.startsWith(base + sep) ? full : null;
}
