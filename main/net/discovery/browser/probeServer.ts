import { randomInt } from 'node:crypto';
import { systemScheduler, type Scheduler } from '../../../base/scheduler';
import type { OpenDatagramSocket } from '../../endpoint/datagramSocket';
import type { DiscoveryAdvert } from '../advert/discoveryReply';
import { buildDiscoveryQuery } from '../advert/discoveryRequest';
import type { SendFailure } from '../sendDatagram';
import { openLanQuerySocket, type LanQuerySocket } from './lanQuerySocket';

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
  /** The socket seam; default a UDP socket. */
  readonly openSocket?: OpenDatagramSocket;
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

/** An address as a reply names it: an IPv4-mapped IPv6 source is its IPv4 address. */
const plain = (address: string): string => (address.startsWith('::ffff:') ? address.slice(7) : address);

/**
 * Asks one address whether a room is there: a unicast LAN Party discovery query (the reference answers it
 * too, with its three fields) to host:port on the query socket every search uses, resent up to `attempts` times
 * within `timeoutMs`. Resolves with the first well-formed reply from exactly that address and port (a LAN Party
 * reply must echo the query's nonce; the reference's carries none), "no-answer" after the wait, or
 * "send-failed" with the errno when the OS refuses the send (no route, no such address). Never rejects.
 */
export async function probeServer(options: ProbeServerOptions): Promise<ProbeResult> {
  const scheduler = options.scheduler ?? systemScheduler;
  const timeoutMs = Math.max(1, options.timeoutMs ?? PROBE_DEFAULTS.timeoutMs);
  const attempts = Math.min(10, Math.max(1, Math.floor(options.attempts ?? PROBE_DEFAULTS.attempts)));
  const { host, port } = options;
  const nonce = randomInt(0, 0xffffffff);
  const query = buildDiscoveryQuery({ nonce });
  const started = scheduler.now();
  let sent = 0;
  let lastSentAt = started;
  let answer: ((result: ProbeResult) => void) | undefined;

  let socket: LanQuerySocket;
  try {
    socket = await openLanQuerySocket({
      ...(options.bindAddress !== undefined ? { bindAddress: options.bindAddress } : {}),
      ...(options.openSocket ? { openSocket: options.openSocket } : {}),
      ...(options.platform ? { platform: options.platform } : {}),
      isAllowedSource: (address) => plain(address) === host,
      onReply: (advert, from) => {
        // A LAN Party reply echoes our nonce; one with another nonce answers someone else's query.
        if (from.port !== port || (advert.nonce !== undefined && advert.nonce !== nonce)) return;
        answer?.({ kind: 'answered', host, advert, rttMs: scheduler.now() - lastSentAt, attempts: sent });
      },
    });
  } catch (error) {
    const cause = (error as Error).cause as NodeJS.ErrnoException | undefined;
    return {
      kind: 'send-failed',
      host,
      failure: { target: host, port, code: cause?.code ?? 'EUNKNOWN', message: (error as Error).message },
    };
  }

  const result = await new Promise<ProbeResult>((resolve) => {
    const timers: unknown[] = [];
    answer = (outcome) => {
      answer = undefined;
      for (const timer of timers) scheduler.clearTimer(timer);
      resolve(outcome);
    };
    const sendOne = async (): Promise<void> => {
      if (!answer) return;
      sent += 1;
      lastSentAt = scheduler.now();
      const [failure] = await socket.sendRound(query, port, [host]);
      if (failure) answer?.({ kind: 'send-failed', host, failure });
    };
    // sendRound resolves with its failures, it never rejects.
    void sendOne();
    for (let attempt = 1; attempt < attempts; attempt += 1) {
      timers.push(scheduler.setTimer(() => void sendOne(), Math.floor((timeoutMs * attempt) / attempts)));
    }
    timers.push(
      scheduler.setTimer(
        () => answer?.({ kind: 'no-answer', host, attempts: sent, waitedMs: scheduler.now() - started }),
        timeoutMs,
      ),
    );
  });
  await socket.close();
  return result;
}
