import dgram, { type RemoteInfo, type Socket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import { systemScheduler, type Scheduler } from '../../../base/scheduler';
import { DISCOVERY } from '../advert/discoveryProtocol';
import { parseDiscoveryReply, type DiscoveryAdvert } from '../advert/discoveryReply';
import { buildDiscoveryQuery } from '../advert/discoveryRequest';
import { sendDatagram, type SendFailure } from '../sendDatagram';

/** How long a probe waits in all, and how many queries it spreads over that time (a lost datagram is retried). */
export const PROBE_DEFAULTS = { timeoutMs: 300, attempts: 3 } as const;

/** Options of {@link probeServer}. */
export interface ProbeServerOptions {
  /** The IPv4 address to ask (unicast only: a probe never broadcasts). */
  readonly host: string;
  /** The discovery port there. */
  readonly port: number;
  /** Total wait for an answer; default 300 ms. */
  readonly timeoutMs?: number;
  /** Queries sent, evenly spaced over the wait (1–10); default 3. */
  readonly attempts?: number;
  /** Default 0.0.0.0, so the OS picks the egress interface for the destination. */
  readonly bindAddress?: string;
  readonly scheduler?: Scheduler;
  readonly createSocket?: () => Socket;
  readonly platform?: NodeJS.Platform;
}

/** What a probe learnt: the room's advert, silence, or why the query could not even leave. */
export type ProbeResult =
  | {
      readonly kind: 'answered';
      readonly host: string;
      readonly advert: DiscoveryAdvert;
      /** From the query that was answered to its answer. */
      readonly rttMs: number;
      readonly attempts: number;
    }
  | { readonly kind: 'no-answer'; readonly host: string; readonly attempts: number; readonly waitedMs: number }
  | { readonly kind: 'send-failed'; readonly host: string; readonly failure: SendFailure };

function isFrom(from: RemoteInfo, host: string, port: number): boolean {
  const address = from.address.startsWith('::ffff:') ? from.address.slice(7) : from.address;
  return address === host && from.port === port;
}

/**
 * Asks one address whether a room is there: a unicast LAN Party discovery query (the reference answers it
 * too, with its three fields) to host:port on a socket of its own, resent up to `attempts` times within
 * `timeoutMs`. Resolves with the first well-formed reply from exactly that address and port (a LAN Party
 * reply must echo the query's nonce; the reference's carries none), "no-answer" after the wait, or
 * "send-failed" with the errno when the OS refuses the send (no route, no such address). Never rejects.
 */
export async function probeServer(options: ProbeServerOptions): Promise<ProbeResult> {
  const scheduler = options.scheduler ?? systemScheduler;
  const timeoutMs = Math.max(1, options.timeoutMs ?? PROBE_DEFAULTS.timeoutMs);
  const attempts = Math.min(10, Math.max(1, Math.floor(options.attempts ?? PROBE_DEFAULTS.attempts)));
  const { host, port } = options;
  const socket = options.createSocket?.() ?? dgram.createSocket('udp4');
  const nonce = randomInt(0, 0xffffffff);
  const query = buildDiscoveryQuery({ nonce });
  const started = scheduler.now();

  const bound = await new Promise<SendFailure | undefined>((resolve) => {
    const onError = (error: NodeJS.ErrnoException) =>
      resolve({ target: host, port, code: error.code ?? 'EUNKNOWN', message: error.message });
    socket.once('error', onError);
    socket.bind(0, options.bindAddress ?? '0.0.0.0', () => {
      socket.off('error', onError);
      resolve(undefined);
    });
  });
  if (bound) {
    socket.close();
    return { kind: 'send-failed', host, failure: bound };
  }
  // Late ICMP errors or a closing race must not crash the process: the result comes from the timers.
  socket.on('error', () => undefined);

  return new Promise<ProbeResult>((resolve) => {
    let sent = 0;
    let lastSentAt = started;
    let finished = false;
    const timers: unknown[] = [];
    const finish = (result: ProbeResult): void => {
      if (finished) return;
      finished = true;
      for (const timer of timers) scheduler.clearTimer(timer);
      socket.removeAllListeners('message');
      socket.close();
      resolve(result);
    };
    socket.on('message', (datagram, from) => {
      if (!isFrom(from, host, port) || datagram.length > DISCOVERY.MAX_DATAGRAM_BYTES) return;
      const advert = parseDiscoveryReply(datagram);
      // A LAN Party reply echoes our nonce; one with another nonce answers someone else's query.
      if (!advert || (advert.nonce !== undefined && advert.nonce !== nonce)) return;
      finish({ kind: 'answered', host, advert, rttMs: scheduler.now() - lastSentAt, attempts: sent });
    });
    const sendOne = async (): Promise<void> => {
      if (finished) return;
      sent += 1;
      lastSentAt = scheduler.now();
      const failure = await sendDatagram(socket, query, port, host, options.platform);
      if (failure) finish({ kind: 'send-failed', host, failure });
    };
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      const delay = Math.floor((timeoutMs * attempt) / attempts);
      if (attempt === 0) void sendOne();
      else timers.push(scheduler.setTimer(() => void sendOne(), delay));
    }
    timers.push(
      scheduler.setTimer(
        () => finish({ kind: 'no-answer', host, attempts: sent, waitedMs: scheduler.now() - started }),
        timeoutMs,
      ),
    );
  });
}
