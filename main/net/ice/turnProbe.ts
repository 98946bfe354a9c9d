import { createHash } from 'node:crypto';
import { classes, Message, methods, parseMessage } from 'werift-ice';
import { sleep, systemScheduler, type Scheduler } from '../../base/scheduler';
import type { OpenDatagramSocket } from '../endpoint/datagramSocket';
import { openUdpDatagramSocket } from '../endpoint/udpSocket';

/** What one TURN Allocate said about a server and a pair of credentials. */
export type TurnProbeResult =
  | { readonly outcome: 'allocated' }
  | { readonly outcome: 'refused'; readonly code?: number }
  | { readonly outcome: 'unreachable' }
  | { readonly outcome: 'error'; readonly code: number; readonly reason: string };

const UDP_TRANSPORT = 0x11_00_00_00; // REQUESTED-TRANSPORT: protocol 17 in the top byte (RFC 8656)
const ATTEMPTS = 3;

/** What {@link probeTurnAllocation} runs on: the socket seam and the clock; default UDP and real time. */
export interface TurnProbeIo {
  readonly openSocket?: OpenDatagramSocket;
  readonly scheduler?: Scheduler;
}

/**
 * Asks a TURN server for one allocation (and frees it again): werift reports a refused allocation only as a
 * transaction timeout after 6 s, the same as an unreachable server. The unauthenticated Allocate must draw
 * a 401 challenge (else: unreachable); the authenticated one then succeeds, or draws an error, or — what
 * coturn does for an unknown or expired REST username — no answer at all: refused.
 */
export async function probeTurnAllocation(
  server: readonly [string, number],
  username: string,
  password: string,
  waitMs = 700,
  io: TurnProbeIo = {},
): Promise<TurnProbeResult> {
  const scheduler = io.scheduler ?? systemScheduler;
  const socket = await (io.openSocket ?? openUdpDatagramSocket)({ port: 0, host: '0.0.0.0', recvBufferSize: 0 });
  // Every transaction waiting for its answer, by id: the release below may still wait while the probe returns.
  const waiting = new Map<string, (message: Message) => void>();
  socket.listen({
    message: (data) => {
      const message = parseMessage(Buffer.from(data));
      if (message) waiting.get(message.transactionIdHex)?.(message);
    },
    sendError: () => undefined,
    error: () => undefined,
  });
  // The allocation's release below is not awaited: its retries must stop, not send on the closed socket.
  let closed = false;
  try {
    const ask = async (request: Message, key?: Buffer): Promise<Message | undefined> => {
      if (key) request.addMessageIntegrity(key).addFingerprint();
      for (let attempt = 0; attempt < ATTEMPTS && !closed; attempt++) {
        const answer = await new Promise<Message | undefined>((resolve) => {
          const timer = scheduler.setTimer(() => done(undefined), waitMs);
          const done = (message: Message | undefined) => {
            scheduler.clearTimer(timer);
            waiting.delete(request.transactionIdHex);
            resolve(message);
          };
          waiting.set(request.transactionIdHex, done);
          socket.send(request.bytes, server[1], server[0]);
        });
        if (answer) return answer;
      }
      return undefined;
    };
    const allocate = () =>
      new Message(methods.ALLOCATE, classes.REQUEST)
        .setAttribute('LIFETIME', 60)
        .setAttribute('REQUESTED-TRANSPORT', UDP_TRANSPORT);
    const challenge = await ask(allocate());
    if (!challenge) return { outcome: 'unreachable' };
    const realm = challenge.getAttributeValue('REALM') as string | undefined;
    const nonce = challenge.getAttributeValue('NONCE') as Buffer | undefined;
    if (challenge.messageClass === classes.RESPONSE) return { outcome: 'allocated' };
    const [challengeCode] = (challenge.getAttributeValue('ERROR-CODE') as [number, string] | undefined) ?? [0, ''];
    if (challengeCode !== 401 || realm === undefined || nonce === undefined) {
      return { outcome: 'error', code: challengeCode, reason: errorReason(challenge) };
    }
    const key = createHash('md5').update(`${username}:${realm}:${password}`).digest();
    const withAuth = (request: Message) =>
      request.setAttribute('USERNAME', username).setAttribute('REALM', realm).setAttribute('NONCE', nonce);
    const answer = await ask(withAuth(allocate()), key);
    if (!answer) return { outcome: 'refused' };
    if (answer.messageClass === classes.RESPONSE) {
      // Free the allocation at once: this was only a question. Should the refresh not leave (the probe closing), the
      // allocation expires by itself after its 60 s lifetime.
      void ask(withAuth(new Message(methods.REFRESH, classes.REQUEST).setAttribute('LIFETIME', 0)), key).catch(
        () => undefined,
      );
      await sleep(50, scheduler);
      return { outcome: 'allocated' };
    }
    const [code] = (answer.getAttributeValue('ERROR-CODE') as [number, string] | undefined) ?? [0, ''];
    if (code === 401 || code === 438 || code === 441) return { outcome: 'refused', code };
    return { outcome: 'error', code, reason: errorReason(answer) };
  } finally {
    closed = true;
    await socket.close();
  }
}

function errorReason(message: Message): string {
  const value = message.getAttributeValue('ERROR-CODE') as [number, string] | undefined;
  return value ? `${value[0]} ${value[1]}` : 'no error code';
}
