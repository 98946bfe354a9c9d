const policyWith = (connectSrc: string): string =>
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  `connect-src ${connectSrc}; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'`;

/**
 * The renderer's Content-Security-Policy as built and packaged: only our own scripts and styles (no inline,
 * no eval), network only to ourselves (the packaged page talks to the backend over Electron IPC).
 * renderer/index.html's meta tag must equal this (a test checks), so the production build carries it.
 */
export const CONTENT_SECURITY_POLICY = policyWith("'self'");

/**
 * The policy of a page served to a browser in development (`npm run dev:web`, the vite dev server): the
 * same, plus the loopback WebSocket binding the page reaches the backend through. Never in a package.
 */
export const DEV_CONTENT_SECURITY_POLICY = policyWith("'self' ws://127.0.0.1:*");

/** `html` with the content of its Content-Security-Policy meta tag replaced by `policy` (no tag: unchanged). */
export function withMetaCsp(html: string, policy: string): string {
  return html.replace(
    /(<meta\b[^>]*http-equiv\s*=\s*["']content-security-policy["'][^>]*content\s*=\s*")[^"]*(")/i,
    `$1${policy}$2`,
  );
}

/** Directive name → its source list, e.g. `script-src` → [`'self'`]. */
export function parseCsp(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

/** The content of the first `<meta http-equiv="Content-Security-Policy">` in an HTML document, or null. */
export function extractMetaCsp(html: string): string | null {
  for (const tag of html.match(/<meta\b[^>]*>/gi) ?? []) {
    if (!/http-equiv\s*=\s*["']content-security-policy["']/i.test(tag)) continue;
    const content = /content\s*=\s*"([^"]*)"/i.exec(tag) ?? /content\s*=\s*'([^']*)'/i.exec(tag);
    return content?.[1] ?? null;
  }
  return null;
}
