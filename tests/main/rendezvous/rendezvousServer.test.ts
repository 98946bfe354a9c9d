import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { silentLogger } from '../../../main/base/logger';
import { systemScheduler } from '../../../main/base/scheduler';
import {
  clientAddress,
  startRendezvousServer,
  type RendezvousServer,
  type RendezvousServerOptions,
} from '../../../main/rendezvous/rendezvousServer';
import { loadOrCreateServiceKey } from '../../../main/rendezvous/serviceKey';
import { waitFor } from '../../support/waitFor';

const dir = mkdtempSync(join(tmpdir(), 'lp-rv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let server: RendezvousServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async (extra: Partial<RendezvousServerOptions> = {}) =>
  (server = await startRendezvousServer({
    host: '127.0.0.1',
    port: 0,
    scheduler: systemScheduler,
    logger: silentLogger,
    ...extra,
  }));

/** The first message a WebSocket client gets (the welcome), or the error that ended it. */
function firstMessage(url: string, options: WebSocket.ClientOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    ws.once('message', (data) => {
      resolve(String(data));
      ws.close();
    });
    ws.once('error', reject);
  });
}

describe('the rendezvous server', () => {
  it('serves wss:// itself with a certificate and key', async () => {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
    const started = await start({ tls: { cert: readFileSync(cert), key: readFileSync(key) } });
    expect(started.url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/rendezvous\/v1$/);
    expect(JSON.parse(await firstMessage(started.url, { ca: readFileSync(cert) }))).toMatchObject({ kind: 'welcome' });
    // A client that does not trust the certificate gets no rendezvous.
    await expect(firstMessage(started.url)).rejects.toThrow(/self[- ]signed|certificate/i);
    await expect(firstMessage(started.url.replace('wss:', 'ws:'))).rejects.toThrow();
  });

  it('counts TCP connections before the upgrade and ends requests that never finish', async () => {
    const started = await start({ maxSocketsPerAddress: 3, requestTimeoutMs: 500 });
    const sockets: Socket[] = [];
    const closed: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      const socket = connect(started.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.on('close', () => (closed[i] = true));
      socket.resume(); // read, so the server's 408 and FIN are seen
      socket.write('GET /rendezvous/v1 HTTP/1.1\r\nHost: x\r\n'); // never finished
      sockets.push(socket);
      await new Promise((resolve) => socket.once('connect', resolve));
    }
    // The two over the cap are closed at once; the three half-open ones once the request timeout passes.
    await waitFor(() => closed[3] === true && closed[4] === true, 5_000, 'the two sockets over the cap closed');
    await waitFor(() => closed.filter(Boolean).length === 5, 10_000, 'the half-open requests ended');
    for (const socket of sockets) socket.destroy();
  });

  it('reads the forwarded address from trusted proxies only', () => {
    const request = (remoteAddress: string, forwarded?: string) =>
      ({ socket: { remoteAddress }, headers: forwarded ? { 'x-forwarded-for': forwarded } : {} }) as IncomingMessage;
    expect(clientAddress(request('10.0.0.5', '198.51.100.7'), ['10.0.0.5'])).toBe('198.51.100.7');
    expect(clientAddress(request('10.0.0.5', '1.2.3.4, 198.51.100.7'), ['10.0.0.5'])).toBe('198.51.100.7');
    expect(clientAddress(request('203.0.113.9', '198.51.100.7'), ['10.0.0.5'])).toBe('203.0.113.9');
    expect(clientAddress(request('10.0.0.5'), ['10.0.0.5'])).toBe('10.0.0.5');
    expect(clientAddress(request('10.0.0.5', 'not an address<script>'), ['10.0.0.5'])).toBe('10.0.0.5');
  });

  it('keeps its service key across restarts in a file it creates', () => {
    const path = join(dir, 'service-key');
    const first = loadOrCreateServiceKey(path);
    expect(first).toHaveLength(32);
    expect(loadOrCreateServiceKey(path)).toEqual(first);
    const bad = join(dir, 'bad-key');
    writeFileSync(bad, 'hello\n');
    expect(() => loadOrCreateServiceKey(bad)).toThrow(/not a rendezvous service key/);
  });
});
