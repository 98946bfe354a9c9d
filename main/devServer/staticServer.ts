import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import type { Logger } from '../base/logger';
import { withMetaCsp } from '../shell/window/contentSecurityPolicy';
import { contentTypeFor } from './contentTypes';
import { resolveStaticPath } from './resolveStaticPath';

/** Options for {@link startStaticServer}. */
export interface StaticServerOptions {
  readonly root: string;
  /** Sent as the Content-Security-Policy header on every response, and put into HTML pages' CSP meta tag. */
  readonly csp: string;
  /** 0 (default) lets the OS pick. */
  readonly port?: number;
  readonly logger: Logger;
}

/** A running static server on 127.0.0.1. */
export interface StaticServer {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves a built renderer folder read-only over http on loopback, with the app's security headers. */
export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const { root, csp, logger } = options;
  let expectedHost = '';
  const securityHeaders = {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
  const reply = (res: ServerResponse, status: number, body = ''): void => {
    res.writeHead(status, { ...securityHeaders, 'Content-Type': 'text/plain; charset=utf-8' }).end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, 'Method Not Allowed');
    // A Host other than ours means DNS rebinding or a confused client: refuse.
    if (req.headers.host !== expectedHost) return reply(res, 403, 'Forbidden');
    const path = resolveStaticPath(root, req.url ?? '/');
    if (!path) return reply(res, 400, 'Bad Request');
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return reply(res, 404, 'Not Found');
    const file = await readFile(path);
    // The built page carries the packaged policy; a browser applies both tag and header, so both say ours.
    const body = extname(path) === '.html' ? Buffer.from(withMetaCsp(file.toString('utf8'), csp)) : file;
    res.writeHead(200, {
      ...securityHeaders,
      'Content-Type': contentTypeFor(extname(path)),
      'Content-Length': String(body.length),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error('static server failed', error);
      if (!res.headersSent) reply(res, 500, 'Internal Server Error');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  expectedHost = `127.0.0.1:${port}`;
  return {
    origin: `http://${expectedHost}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
