import { request as httpRequest } from 'node:http';
import type { Scheduler } from '../../../base/scheduler';

/** The most of a description or SOAP answer read: a router's description is a few KiB. */
const MAX_BODY_BYTES = 64 * 1024;

/** What a UPnP HTTP exchange answered. */
export interface UpnpHttpResponse {
  readonly status: number;
  readonly body: string;
}

/** One UPnP HTTP request (the description GET, a SOAP POST). */
export interface UpnpHttpRequest {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeoutMs: number;
  readonly scheduler: Scheduler;
}

/** Sends one UPnP HTTP request (plain http only); null on any failure, timeout or oversized answer. Never rejects. */
export type UpnpHttp = (request: UpnpHttpRequest) => Promise<UpnpHttpResponse | null>;

/** The node:http {@link UpnpHttp}: a router speaks HTTP/1.1 on its LAN address. */
export const nodeUpnpHttp: UpnpHttp = (options) =>
  new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      resolve(null);
      return;
    }
    if (url.protocol !== 'http:') {
      resolve(null);
      return;
    }
    let settled = false;
    const done = (result: UpnpHttpResponse | null): void => {
      if (settled) return;
      settled = true;
      options.scheduler.clearTimer(timer);
      resolve(result);
    };
    const body = options.body === undefined ? undefined : Buffer.from(options.body, 'utf8');
    const req = httpRequest(
      url,
      {
        method: options.method,
        agent: false,
        headers: {
          ...options.headers,
          ...(body ? { 'Content-Length': String(body.length) } : {}),
          Connection: 'close',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) {
            req.destroy();
            done(null);
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => done(null));
      },
    );
    const timer = options.scheduler.setTimer(() => {
      req.destroy();
      done(null);
    }, options.timeoutMs);
    req.on('error', () => done(null));
    req.end(body);
  });
