import type { Scheduler } from '../../../base/scheduler';
import type { DatagramSocket, OpenDatagramSocket } from '../../../net/index';
import type { RouterContext } from './routerProtocol';

/** One UDP question to the router and how long to keep asking. */
export interface RouterExchange<T> {
  readonly openSocket: OpenDatagramSocket;
  readonly scheduler: Scheduler;
  /** The local address to send from (the one a PCP request names; 0.0.0.0 when it does not matter). */
  readonly bindAddress: string;
  /** Where to ask: the router (or a STUN server); a name is resolved once. */
  readonly host: string;
  readonly port: number;
  readonly request: Uint8Array;
  /** The answer in a datagram from the router, or null to keep waiting (another answer, garbage). */
  readonly parse: (datagram: Uint8Array) => T | null;
  readonly timeoutMs: number;
}

/** First wait before a resend; doubled each time (RFC 6886 §3.1 and RFC 6887 §8.1.1 both start at ~250 ms). */
const FIRST_RESEND_MS = 250;

/**
 * Sends a request from a fresh socket connected to the router, resending at 250 ms, 750 ms, 1750 ms…, and resolves
 * with the first answer that parses; null when none does within the timeout or the socket cannot open. The
 * connected socket hears only the router's address and port (RFC 6886 §3.1: a neighbour's datagram is not
 * believed). Never rejects.
 */
export async function askRouter<T>(exchange: RouterExchange<T>): Promise<T | null> {
  let socket: DatagramSocket;
  try {
    socket = await exchange.openSocket({ port: 0, host: exchange.bindAddress, recvBufferSize: 0 });
  } catch {
    return null;
  }
  const { scheduler } = exchange;
  try {
    await socket.connect(exchange.port, exchange.host);
  } catch {
    await socket.close();
    return null;
  }
  try {
    return await new Promise<T | null>((resolve) => {
      let resendTimer: unknown;
      let waitMs = FIRST_RESEND_MS;
      const finish = (answer: T | null): void => {
        scheduler.clearTimer(resendTimer);
        scheduler.clearTimer(deadline);
        resolve(answer);
      };
      const send = (): void => {
        socket.send(exchange.request);
        resendTimer = scheduler.setTimer(send, waitMs);
        waitMs *= 2;
      };
      socket.listen({
        message: (datagram) => {
          const answer = exchange.parse(datagram);
          if (answer !== null) finish(answer);
        },
        sendError: () => undefined,
        error: () => undefined,
      });
      const deadline = scheduler.setTimer(() => finish(null), exchange.timeoutMs);
      send();
    });
  } finally {
    await socket.close();
  }
}

/**
 * One question to the context's gateway on `port` (NAT-PMP's or PCP's), from this machine's address towards it,
 * within the context's request timeout unless `timeoutMs` says otherwise (a probe's window).
 */
export function askGateway<T>(
  context: RouterContext,
  port: number,
  question: Pick<RouterExchange<T>, 'request' | 'parse'> & { readonly timeoutMs?: number },
): Promise<T | null> {
  return askRouter({
    openSocket: context.openSocket,
    scheduler: context.scheduler,
    bindAddress: context.clientAddress,
    host: context.gateway,
    port,
    request: question.request,
    parse: question.parse,
    timeoutMs: question.timeoutMs ?? context.requestTimeoutMs,
  });
}
