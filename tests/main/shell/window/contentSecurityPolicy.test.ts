import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  DEV_CONTENT_SECURITY_POLICY,
  extractMetaCsp,
  parseCsp,
  withMetaCsp,
} from '../../../../main/shell/window/contentSecurityPolicy';

const root = resolve(__dirname, '../../../..');
const sourceHtml = resolve(root, 'renderer/index.html');
const builtHtml = resolve(root, 'dist/renderer/index.html');

function assertStrict(policy: string, connect: string[]): void {
  const csp = parseCsp(policy);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('style-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'none'"]);
  expect(csp.get('frame-src')).toEqual(["'none'"]);
  expect(csp.get('form-action')).toEqual(["'none'"]);
  expect(csp.get('connect-src')).toEqual(connect);
  for (const sources of csp.values()) {
    for (const source of sources) {
      expect(source).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes|wasm-unsafe-eval|^\*$|^https?:$|^blob:$/);
    }
  }
  for (const directive of ['script-src-elem', 'script-src-attr', 'style-src-elem', 'style-src-attr', 'worker-src']) {
    expect(csp.has(directive)).toBe(false);
  }
}

describe('Content-Security-Policy', () => {
  it('the packaged policy is strict and reaches nothing but its own origin', () => {
    assertStrict(CONTENT_SECURITY_POLICY, ["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/ws:|127\.0\.0\.1|localhost/);
  });

  it('the development policy adds only the loopback WebSocket binding', () => {
    assertStrict(DEV_CONTENT_SECURITY_POLICY, ["'self'", 'ws://127.0.0.1:*']);
  });

  it('withMetaCsp swaps the meta tag policy and nothing else', () => {
    const html = readFileSync(sourceHtml, 'utf8');
    const dev = withMetaCsp(html, DEV_CONTENT_SECURITY_POLICY);
    expect(extractMetaCsp(dev)).toBe(DEV_CONTENT_SECURITY_POLICY);
    expect(dev.replace(DEV_CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY)).toBe(html);
    expect(withMetaCsp('<p>no tag</p>', 'x')).toBe('<p>no tag</p>');
  });

  it('renderer/index.html carries exactly that policy', () => {
    expect(extractMetaCsp(readFileSync(sourceHtml, 'utf8'))).toBe(CONTENT_SECURITY_POLICY);
  });

  it('the production build carries it too, with no inline script or style', () => {
    if (!existsSync(builtHtml)) throw new Error(`${builtHtml} is missing: run \`npm run build\` first.`);
    const html = readFileSync(builtHtml, 'utf8');
    expect(extractMetaCsp(html)).toBe(CONTENT_SECURITY_POLICY);
    for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) expect(tag).toMatch(/\bsrc=/);
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/\sstyle\s*=/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  });

  it('the parser and extractor read real-world shapes', () => {
    expect(parseCsp(" default-src 'self' ;; Script-Src 'none' ").get('script-src')).toEqual(["'none'"]);
    expect(extractMetaCsp(`<meta content='a' http-equiv='Content-Security-Policy'>`)).toBe('a');
    expect(extractMetaCsp('<meta charset="utf-8">')).toBeNull();
  });
});
