import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { BindingLocation } from '../../shared/ipc/bindingHash';
import type { ContractShape } from '../../shared/ipc/contractTypes';
import { IpcErrorCode } from '../../shared/ipc/errors';
import { err } from '../../shared/ipc/result';
import {
  WS_MAX_PAYLOAD_BYTES,
  WS_SECRET_PARAM,
  webSocketBindingUrl,
  wsRequestMessageSchema,
  type WsServerMessage,
} from '../../shared/ipc/wsProtocol';
import type { Logger } from '../base/logger';
import type { Gateway } from './gateway';
import { ReportLimiter } from '../base/reportLimiter';
import { systemScheduler, type Scheduler } from '../base/scheduler';

/** The only address the binding ever listens on. */
export const WS_BINDING_HOST = '127.0.0.1';

/** Refused connections logged per minute: anyone on the machine can knock, so the log must not grow with them. */
const REFUSALS_LOGGED_PER_MINUTE = 5;

/** Options for {@link startWebSocketBinding}. */
export interface WebSocketBindingOptions<C extends ContractShape> {
  readonly gateway: Gateway<C>;
  /** Per-run secret every connection must present as `?secret=`. */
  readonly secret: string;
  /** 0 (default) lets the OS pick a free port. */
  readonly port?: number;
  /**
   * The page origins allowed to connect (the dev server's). A handshake must carry one of them as `Origin`, and
   * `Host` must name the binding itself (127.0.0.1 or localhost with its port), so neither another site nor a
   * DNS-rebound name reaches the gateway. Empty refuses every handshake.
   */
  readonly allowedOrigins: readonly string[];
  readonly logger: Logger;
  /** Its clock times the refusal-log rate limit; default real time. */
  readonly scheduler?: Pick<Scheduler, 'now'>;
}

/** Counters for refused connections and dropped frames. */
export interface WebSocketBindingStats {
  readonly rejectedConnections: number;
  readonly droppedMessages: number;
  readonly openConnections: number;
}

/** A running binding. */
export interface WebSocketBinding {
  readonly location: BindingLocation;
  /** ws:// URL including the secret. */
  readonly url: string;
  stats(): WebSocketBindingStats;
  close(): Promise<void>;
}

/** A fresh per-run secret for the binding: 32 random bytes, base64url. */
export function createBindingSecret(random: (size: number) => Buffer = randomBytes): string {
  return random(32).toString('base64url');
}

/** Constant-time comparison (hashing first so the length of the secret does not leak either). */
export function secretsMatch(expected: string, offered: string): boolean {
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(offered).digest();
  return timingSafeEqual(a, b) && expected.length > 0;
}

function refuse(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** A header value for a log line: quoted, at most 64 characters. */
function shown(value: string | undefined): string {
  if (value === undefined) return 'none';
  return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
}

/** Serves the gateway over WebSocket on 127.0.0.1 for browser tests and `npm run dev:web`. */
export async function startWebSocketBinding<C extends ContractShape>(
  options: WebSocketBindingOptions<C>,
): Promise<WebSocketBinding> {
  const { gateway, secret, logger, allowedOrigins } = options;
  if (secret.length < 16) throw new Error('WebSocket binding needs a secret of at least 16 characters');
  const counts = { rejectedConnections: 0, droppedMessages: 0 };
  // Anyone on this machine can knock: log five refusals a minute; the next one logged says how many were held back.
  const refusals = new ReportLimiter(REFUSALS_LOGGED_PER_MINUTE, 60_000);
  const clock = options.scheduler ?? systemScheduler;
  let port = 0;
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD_BYTES });
  const http = createServer((_req, res) => {
    res.writeHead(426, { 'Content-Length': '0' }).end();
  });

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', `http://${WS_BINDING_HOST}`);
    const { origin, host } = req.headers;
    let refusal: [number, string, string] | null = null;
    if (url.pathname !== '/') refusal = [404, 'Not Found', 'unknown path'];
    else if (!secretsMatch(secret, url.searchParams.get(WS_SECRET_PARAM) ?? ''))
      refusal = [401, 'Unauthorized', 'wrong secret'];
    else if (origin === undefined || !allowedOrigins.includes(origin))
      refusal = [403, 'Forbidden', `origin ${shown(origin)} is not the app's page`];
    else if (host !== `${WS_BINDING_HOST}:${port}` && host !== `localhost:${port}`)
      refusal = [403, 'Forbidden', `host ${shown(host)} is not this binding`];
    if (refusal) {
      counts.rejectedConnections += 1;
      if (refusals.admit(clock.now())) {
        const held = refusals.drainSuppressed();
        const line = `refused WebSocket connection: ${refusal[1]} (${refusal[2]})`;
        logger.warn(held > 0 ? `${line} (${held} more refused since the last report)` : line);
      }
      refuse(socket, refusal[0], refusal[1]);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  const send = (ws: WebSocket, message: WsServerMessage): void => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };

  wss.on('connection', (ws: WebSocket) => {
    ws.on('error', (error) => logger.warn('WebSocket client error', error));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      let json: unknown;
      try {
        json = isBinary ? undefined : JSON.parse(data.toString());
      } catch {
        json = undefined;
      }
      const parsed = wsRequestMessageSchema.safeParse(json);
      if (!parsed.success) {
        counts.droppedMessages += 1;
        const id = (json as { id?: unknown } | undefined)?.id;
        if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) {
          send(ws, { t: 'res', id, result: err(IpcErrorCode.INVALID_ARGUMENT, 'Malformed request frame') });
        }
        return;
      }
      const { id, name, input } = parsed.data;
      void gateway
        .dispatch(name, input, { transport: 'websocket' })
        .then((result) => send(ws, { t: 'res', id, result }))
        .catch((error: unknown) => logger.warn('WebSocket reply failed', error));
    });
  });

  const unsubscribe = gateway.subscribe((name, payload) => {
    for (const client of wss.clients) send(client, { t: 'evt', name, payload });
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, WS_BINDING_HOST, () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;

  return {
    location: { port, secret },
    url: webSocketBindingUrl(port, secret),
    stats: () => ({ ...counts, openConnections: wss.clients.size }),
    close() {
      closing ??= (async () => {
        unsubscribe();
        for (const client of wss.clients) client.terminate();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
