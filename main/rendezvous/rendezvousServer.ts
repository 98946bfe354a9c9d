import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  RENDEZVOUS_LIMITS,
  RendezvousErrorCode,
  RendezvousKind,
  frameMessage,
  type ServiceMessageBody,
} from '../../shared/rendezvous';
import type { Logger } from '../base/logger';
import { backgroundScheduler } from '../base/scheduler';
import { createRendezvousService, type RendezvousService, type RendezvousServiceOptions } from './rendezvousService';

/** The one path the WebSocket is served on; a rendezvous URL is `wss://host:port/rendezvous/v1`. */
export const RENDEZVOUS_PATH = '/rendezvous/v1';

/** Options for {@link startRendezvousServer}. */
export interface RendezvousServerOptions extends RendezvousServiceOptions {
  /** Address to listen on, e.g. 0.0.0.0 on a public machine, 127.0.0.1 in tests. */
  readonly host: string;
  /** TCP port; 0 picks a free one. */
  readonly port: number;
  readonly logger: Logger;
  /** Certificate chain and private key (PEM): serve `wss://` itself. Without them: `ws://` (behind a TLS proxy). */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  /**
   * Addresses of reverse proxies whose X-Forwarded-For names the client: connections from them are limited by
   * the forwarded address (its last hop), everyone else by their own. Empty (default): the header is ignored.
   */
  readonly trustedProxies?: readonly string[];
  /** TCP connections held at once (before and after the WebSocket upgrade), and per source address. */
  readonly maxSockets?: number;
  readonly maxSocketsPerAddress?: number;
  /** Milliseconds a client has to finish its HTTP request (the upgrade); default 10 s. */
  readonly requestTimeoutMs?: number;
  /** WebSocket ping interval; a connection that misses two pongs is ended. Default 20 s. */
  readonly pingIntervalMs?: number;
}

/** A listening rendezvous. */
export interface RendezvousServer {
  readonly service: RendezvousService;
  readonly port: number;
  /** `wss://` (with `tls`) or `ws://host:port/rendezvous/v1` for the listen address (0.0.0.0 becomes 127.0.0.1). */
  readonly url: string;
  /** Closes every connection, then the listener. */
  close(): Promise<void>;
}

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

function answerHttp(request: IncomingMessage, response: ServerResponse): void {
  // A plain GET answers health checks; everything else is the WebSocket's.
  const ok = request.method === 'GET' && (request.url === '/' || request.url === '/health');
  response.writeHead(ok ? 200 : 404, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(ok ? `LAN Party rendezvous: WebSocket at ${RENDEZVOUS_PATH}\n` : 'not found\n');
}

/** The client's address: the last X-Forwarded-For hop when the socket comes from a trusted proxy. */
export function clientAddress(request: IncomingMessage, trustedProxies: readonly string[]): string {
  const direct = request.socket.remoteAddress ?? 'unknown';
  if (!trustedProxies.includes(direct)) return direct;
  const forwarded = request.headers['x-forwarded-for'];
  const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',').map((h) => h.trim());
  const last = hops.filter((hop) => hop !== '').at(-1);
  return last && /^[0-9A-Fa-f:.]{2,45}$/.test(last) ? last : direct;
}

/**
 * Serves the rendezvous over WebSocket (one long-lived connection per host and per joining guest: the host's
 * socket dropping is what starts its room's grace period, and answers reach a waiting guest at once, which
 * long-polling would have to imitate). Messages over {@link RENDEZVOUS_LIMITS.MAX_MESSAGE_BYTES} close the
 * socket with 1009; binary messages are refused; no compression (a small message cannot inflate into a big one).
 * TCP connections are counted from accept (so half-open upgrade requests are bounded too), requests must finish
 * within `requestTimeoutMs`, and WebSocket pings end dead links. Rejects when the port cannot be bound.
 */
export async function startRendezvousServer(options: RendezvousServerOptions): Promise<RendezvousServer> {
  const { logger } = options;
  const trusted = options.trustedProxies ?? [];
  const maxSockets = options.maxSockets ?? 4096;
  const maxPerAddress = options.maxSocketsPerAddress ?? 32;
  const service = createRendezvousService(options);
  const requestTimeout = options.requestTimeoutMs ?? 10_000;
  const httpOptions = {
    requestTimeout,
    headersTimeout: requestTimeout,
    connectionsCheckingInterval: Math.min(1_000, requestTimeout),
  };
  const http: Server = options.tls
    ? createTlsServer({ ...httpOptions, cert: options.tls.cert, key: options.tls.key }, answerHttp)
    : createServer(httpOptions, answerHttp);
  const open = new Map<string, number>();
  let openTotal = 0;
  // Before TLS and HTTP: a flood of sockets that never finish a request is refused here.
  http.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (openTotal >= maxSockets || (count >= maxPerAddress && !trusted.includes(address))) {
      socket.destroy();
      return;
    }
    openTotal += 1;
    open.set(address, count + 1);
    socket.once('close', () => {
      openTotal -= 1;
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: RENDEZVOUS_LIMITS.MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
  });
  const sockets = new Set<WebSocket>();

  http.on('upgrade', (request, socket, head) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== RENDEZVOUS_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    socket.on('error', () => socket.destroy());
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws, clientAddress(request, trusted)));
  });

  const alive = new WeakMap<WebSocket, boolean>();
  // The WebSocket keepalive runs on real time whatever clock the service is given (tests move that one by hand).
  const pinger = backgroundScheduler.setRepeating(() => {
    for (const ws of sockets) {
      if (alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, options.pingIntervalMs ?? 20_000);

  function accept(ws: WebSocket, address: string): void {
    sockets.add(ws);
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));
    const session = service.connect({
      address,
      send: (message: ServiceMessageBody) => {
        if (ws.readyState === ws.OPEN) ws.send(frameMessage(message));
      },
      close: (code, reason) => ws.close(code, reason),
    });
    ws.on('close', () => {
      sockets.delete(ws);
      session?.closed();
    });
    ws.on('error', (error) => {
      // ws reports an oversized message here and closes with 1009; the session ends on 'close'.
      logger.warn(`rendezvous connection from ${address}: ${error.message}`);
    });
    if (!session) return;
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        ws.send(
          frameMessage({
            kind: RendezvousKind.ERROR,
            code: RendezvousErrorCode.MALFORMED,
            message: 'text messages only',
          }),
        );
        return;
      }
      session.receive(textOf(data));
    });
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => {
      http.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    backgroundScheduler.clearTimer(pinger);
    service.close();
    throw error;
  });
  http.on('error', (error) => logger.warn('rendezvous listener error', error));
  const port = (http.address() as AddressInfo).port;
  const shownHost =
    options.host === '0.0.0.0' ? '127.0.0.1' : options.host.includes(':') ? `[${options.host}]` : options.host;
  logger.info(`rendezvous listening on ${options.host}:${port} (${options.tls ? 'wss' : 'ws'})`);

  return {
    service,
    port,
    url: `${options.tls ? 'wss' : 'ws'}://${shownHost}:${port}${RENDEZVOUS_PATH}`,
    async close() {
      backgroundScheduler.clearTimer(pinger);
      service.close();
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
