import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  RENDEZVOUS_LIMITS,
  RendezvousErrorCode,
  RendezvousKind,
  frameMessage,
  type ServiceMessageBody,
} from '../../shared/rendezvous';
import type { Logger } from '../base/logger';
import { createRendezvousService, type RendezvousService, type RendezvousServiceOptions } from './rendezvousService';

/** The one path the WebSocket is served on; a rendezvous URL is `ws://host:port/rendezvous/v1`. */
export const RENDEZVOUS_PATH = '/rendezvous/v1';

/** Options for {@link startRendezvousServer}. */
export interface RendezvousServerOptions extends RendezvousServiceOptions {
  /** Address to listen on, e.g. 0.0.0.0 on a public machine, 127.0.0.1 in tests. */
  readonly host: string;
  /** TCP port; 0 picks a free one. */
  readonly port: number;
  readonly logger: Logger;
}

/** A listening rendezvous. */
export interface RendezvousServer {
  readonly service: RendezvousService;
  readonly port: number;
  /** `ws://host:port/rendezvous/v1` for the listen address (0.0.0.0 becomes 127.0.0.1). */
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

/**
 * Serves the rendezvous over WebSocket (one long-lived connection per host and per joining guest: the host's
 * socket dropping is what starts its room's grace period, and answers reach a waiting guest at once, which
 * long-polling would have to imitate). Messages over {@link RENDEZVOUS_LIMITS.MAX_MESSAGE_BYTES} close the
 * socket with 1009; binary messages are refused; no compression (a small message cannot inflate into a big one).
 * Rejects when the port cannot be bound.
 */
export async function startRendezvousServer(options: RendezvousServerOptions): Promise<RendezvousServer> {
  const { logger } = options;
  const service = createRendezvousService(options);
  const http = createServer(answerHttp);
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
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws, request.socket.remoteAddress ?? 'unknown'));
  });

  function accept(ws: WebSocket, address: string): void {
    sockets.add(ws);
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
    service.close();
    throw error;
  });
  http.on('error', (error) => logger.warn('rendezvous listener error', error));
  const port = (http.address() as AddressInfo).port;
  const shownHost =
    options.host === '0.0.0.0' ? '127.0.0.1' : options.host.includes(':') ? `[${options.host}]` : options.host;
  logger.info(`rendezvous listening on ${options.host}:${port}`);

  return {
    service,
    port,
    url: `ws://${shownHost}:${port}${RENDEZVOUS_PATH}`,
    async close() {
      service.close();
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
