/**
 * The renderer's Content-Security-Policy: only our own scripts and styles (no inline, no eval), network
 * only to ourselves and the loopback WebSocket binding. renderer/index.html's meta tag must equal this
 * (a test checks), and the dev server sends it as a header.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self' ws://127.0.0.1:*; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'";

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
