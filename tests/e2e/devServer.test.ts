import { request } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEV_CONTENT_SECURITY_POLICY } from '../../main/shell/window/contentSecurityPolicy';
import { silentLogger } from '../../main/base/logger';
import { resolveStaticPath } from '../../main/devServer/resolveStaticPath';
import { startDevServer, type DevServer } from '../../main/devServer/startDevServer';
import { parseBindingHash } from '../../shared/ipc/bindingHash';
import { assertRendererBuilt } from './support/rendererBuild';

// The Node-only backend host the browser tests and `npm run dev:web` use, against a fake renderer folder.
let work: string;
let server: DevServer | null = null;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'lan-party-devserver-'));
  await mkdir(join(work, 'renderer/assets'), { recursive: true });
  await writeFile(join(work, 'renderer/index.html'), '<!doctype html><title>t</title>');
  await writeFile(join(work, 'renderer/assets/app.js'), 'console.log(1)');
  await writeFile(join(work, 'secret.txt'), 'outside the root');
});

afterEach(async () => {
  await server?.close();
  server = null;
  await rm(work, { recursive: true, force: true });
});

function start(rendererDir = join(work, 'renderer')) {
  return startDevServer({
    rendererDir,
    userDataDir: join(work, 'user'),
    osUserName: 'ada',
    app: { name: 'LAN Party', version: '1.0.0', platform: 'linux' },
    logger: silentLogger,
  });
}

/** Raw GET so the path is sent exactly as written (fetch would normalise `..`). */
function get(origin: string, path: string, init: { method?: string; host?: string } = {}) {
  const url = new URL(origin);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: url.port,
        path,
        method: init.method ?? 'GET',
        headers: { host: init.host ?? url.host },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('dev server', () => {
  it('prints a loopback URL whose hash points at the WebSocket binding', async () => {
    server = await start();
    const url = new URL(server.url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(parseBindingHash(url.hash)).toEqual(server.binding.location);
  });

  it('serves index.html and assets with the CSP header and a proper type', async () => {
    server = await start();
    const index = await get(server.origin, '/');
    expect(index.status).toBe(200);
    expect(index.headers['content-security-policy']).toBe(DEV_CONTENT_SECURITY_POLICY);
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    const script = await get(server.origin, '/assets/app.js');
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body).toBe('console.log(1)');
  });

  it.each([['/../secret.txt'], ['/%2e%2e/secret.txt'], ['/assets/..%2f..%2fsecret.txt'], ['/a%00b'], ['/%E0%A4%A']])(
    'never serves outside the folder: %s',
    async (path) => {
      server = await start();
      const res = await get(server.origin, path);
      expect([400, 404]).toContain(res.status);
      expect(res.body).not.toContain('outside the root');
    },
  );

  it('answers 404 for missing files and directories, 405 for writes, 403 for a foreign Host', async () => {
    server = await start();
    expect((await get(server.origin, '/nope.js')).status).toBe(404);
    expect((await get(server.origin, '/assets')).status).toBe(404);
    expect((await get(server.origin, '/', { method: 'POST' })).status).toBe(405);
    expect((await get(server.origin, '/', { host: 'evil.example' })).status).toBe(403);
  });

  it('runs the real backend behind the binding, only for our page origin', async () => {
    server = await start();
    const foreign = new WebSocket(server.binding.url, { headers: { Origin: 'http://evil.example' } });
    const refused = await new Promise((resolve) =>
      foreign.once('unexpected-response', (_q, res) => resolve(res.statusCode)),
    );
    expect(refused).toBe(403);
    const ws = new WebSocket(server.binding.url, { headers: { Origin: server.origin } });
    await new Promise((resolve) => ws.once('open', resolve));
    const reply = new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()))));
    ws.send(JSON.stringify({ t: 'req', id: 1, name: 'settings.get' }));
    expect(await reply).toMatchObject({ id: 1, result: { ok: true, value: { playerName: 'ada' } } });
    ws.terminate();
  });

  it('fails with a clear message when the renderer has not been built', async () => {
    await expect(start(join(work, 'missing'))).rejects.toThrow(/npm run build/);
  });
});

describe('static path resolution', () => {
  it('maps / to index.html and keeps paths inside the root', () => {
    expect(resolveStaticPath('/srv/r', '/')).toBe('/srv/r/index.html');
    expect(resolveStaticPath('/srv/r', '/assets/a.js?v=1')).toBe('/srv/r/assets/a.js');
    expect(resolveStaticPath('/srv/r', '/../r2/x')).toBeNull();
    expect(resolveStaticPath('/srv/r', 'relative')).toBeNull();
    expect(resolveStaticPath('/srv/r', '/a\\..\\..\\b')).toBeNull();
  });
});

describe('browser test precondition', () => {
  it('tells the developer to run npm run build when dist/renderer is missing', () => {
    expect(() => assertRendererBuilt(join(tmpdir(), 'lan-party-no-such-build'))).toThrow(/Run `npm run build`/);
  });
});
