import { RENDEZVOUS_VERSION } from '../../shared/rendezvous';
import WebSocket from 'ws';

/** One message from the service, as parsed JSON. */
export type SwarmMessage = { kind: string; joinId?: string; code?: string; message?: string; [key: string]: unknown };

/** A raw rendezvous connection from one local source address (labTrustSwarm.ts). */
export interface SwarmClient {
  /** Every message received, in order (claimed by a wait or not). */
  readonly seen: SwarmMessage[];
  /** Waits in progress (a caller's measure of how busy this connection is). */
  readonly waiting: number;
  /** The close code once the connection ended. */
  readonly closedBy: number | undefined;
  /** Frames and sends a body (adds the protocol version). */
  send(body: Record<string, unknown>): void;
  /** Sends text exactly as given (a replay). */
  sendText(text: string): void;
  /** The first message from now on that matches, or a rejection after `timeoutMs` or when the connection ends. */
  next(match: (m: SwarmMessage) => boolean, timeoutMs: number): Promise<SwarmMessage>;
  close(): void;
}

/** Connects from `source` to `url` and resolves once the service's welcome arrived. */
export function openSwarmClient(url: string, source: string): Promise<SwarmClient> {
  const ws = new WebSocket(url, { localAddress: source, handshakeTimeout: 10_000 });
  const seen: SwarmMessage[] = [];
  // Messages no wait has taken yet: a reply can come in the same read as the one a caller was waiting for.
  const unclaimed: SwarmMessage[] = [];
  const waiters = new Set<{ match: (m: SwarmMessage) => boolean; done: (m?: SwarmMessage) => void }>();
  let closedBy: number | undefined;
  const client: SwarmClient = {
    seen,
    get waiting() {
      return waiters.size;
    },
    get closedBy() {
      return closedBy;
    },
    send: (body) => client.sendText(JSON.stringify({ v: RENDEZVOUS_VERSION, ...body })),
    sendText: (text) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(text);
    },
    next: (match, timeoutMs) =>
      new Promise((resolve, reject) => {
        const queued = unclaimed.findIndex(match);
        if (queued >= 0) return resolve(unclaimed.splice(queued, 1)[0]!);
        if (closedBy !== undefined) return reject(new Error(`closed (${closedBy})`));
        const waiter = {
          match,
          done: (m?: SwarmMessage) => {
            clearTimeout(timer);
            waiters.delete(waiter);
            if (m) resolve(m);
            else reject(new Error(closedBy !== undefined ? `closed (${closedBy})` : 'no answer in time'));
          },
        };
        const timer = setTimeout(() => waiter.done(), timeoutMs);
        waiters.add(waiter);
      }),
    close: () => ws.terminate(),
  };
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as SwarmMessage;
    seen.push(message);
    const waiter = [...waiters].find((w) => w.match(message));
    if (waiter) waiter.done(message);
    else if (unclaimed.length < 4096) unclaimed.push(message);
  });
  ws.on('close', (code) => {
    closedBy = code;
    for (const waiter of [...waiters]) waiter.done();
  });
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    client
      .next((m) => m.kind === 'welcome', 10_000)
      .then(() => {
        ws.off('error', reject);
        ws.on('error', () => undefined);
        resolve(client);
      }, reject);
  });
}
