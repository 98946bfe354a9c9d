import { randomBytes } from 'node:crypto';
import HyperDHT, { type DhtServer, type DhtStream } from 'hyperdht';
import { createAttemptBudget, type AttemptBudgetLimit } from '../../../base/attemptBudget';
import type { Logger } from '../../../base/logger';
import { createRateLimiter, type RateLimit } from '../../../base/rateLimiter';
import type { Scheduler, TimerHandle } from '../../../base/scheduler';
import type { DatagramHandlers, DatagramSocket, DatagramSource } from '../../../net/index';

/**
 * Connects a room answers at once, then one every refillMs. A connect costs the host a reply and a hole punch, so
 * they are budgeted; a refused one gets no reply at all. Looser than the code-guess budget (CODE_GUESS_BUDGET),
 * which the sealed door applies to the offers inside the streams with a "wait" the guest waits out: a real guest
 * refused here hears nothing and would only time out.
 */
export const DHT_CONNECT_BUDGET = { burst: 20, refillMs: 500 } as const;

/**
 * Connects one client address may start at once, then per second, before the room's budget is asked: one address
 * flooding the room's key takes at most half the room's refill, so a real guest elsewhere still finds a token. Under
 * a one-address flood a guest was refused all its tries in 2 of 31 lab runs, the flooder taking each token as it
 * came back. A flood from many addresses is bounded by the room's budget alone.
 */
export const DHT_CONNECTS_PER_ADDRESS: RateLimit = { burst: 8, perSecond: 1 };

/** Whether a room answers a connect, and the token a proof gives back. */
export interface DhtConnectGate {
  /** True when a connect from `address` (as the DHT saw it) is answered; its tokens are then spent. */
  admit(address: string): boolean;
  /** A stream proved the code: its token goes back to the room's budget. */
  proved(): void;
}

/** The door's admission rule: the address's own limit first, then the room-wide budget; `now` in milliseconds. */
export function createDhtConnectGate(
  now: () => number,
  budget: AttemptBudgetLimit = DHT_CONNECT_BUDGET,
  perAddress: RateLimit = DHT_CONNECTS_PER_ADDRESS,
): DhtConnectGate {
  const room = createAttemptBudget(now, budget.burst, budget.refillMs);
  // Bounded (the limiter forgets the least recently seen address past its 1,024).
  const addresses = createRateLimiter<string>(perAddress, { now });
  return {
    admit: (address) => addresses.allow(address) && room.take() === 0,
    proved: () => room.succeeded(),
  };
}

/** Options of {@link openDhtDoor}. */
export interface DhtDoorOptions {
  readonly dht: HyperDHT;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  /** Streams that have not proved the code yet, at once; past it the oldest is closed. Default 16. */
  readonly maxPending?: number;
  /** Milliseconds a stream has to prove the code before it is closed; default 10 000. */
  readonly proofWindowMs?: number;
  /** Connects accepted at once, then one every refillMs (a proof gives its token back); default DHT_CONNECT_BUDGET. */
  readonly connectBudget?: AttemptBudgetLimit;
  /** Connects one client address may start, before the room's budget; default DHT_CONNECTS_PER_ADDRESS. */
  readonly connectsPerAddress?: RateLimit;
  /** Milliseconds the first announce on the DHT may take; default 20 000. */
  readonly listenTimeoutMs?: number;
  /** Randomness for the room's key pair; default node:crypto. */
  readonly randomBytes?: (size: number) => Uint8Array;
}

/** A room's door on the DHT: its streams seen as one socket, each stream a source of its own. */
export interface DhtDoor {
  /** Datagrams in and out of the streams (hand it to openSealedDoor); sends to an unknown source are dropped. */
  readonly socket: DatagramSocket;
  /** The room's public key on the DHT, 64 hex digits (the invite carries it). */
  readonly publicKey: string;
  /** The source proved the code: its stream stays past the proof window. */
  proved(source: DatagramSource): void;
  /** Closes a source's stream (its path was let go). */
  release(source: DatagramSource): void;
  /** Streams open now, and those not proved yet (for tests and logs). */
  readonly held: { readonly streams: number; readonly pending: number };
}

interface OpenStream {
  readonly stream: DhtStream;
  proved: boolean;
  timer: TimerHandle | undefined;
}

const keyOf = (source: DatagramSource) => `${source.address}:${source.port}`;

/** Thrown when the room could not be announced on the DHT in time (no bootstrap node answered, say). */
export class DhtListenError extends Error {
  override readonly name = 'DhtListenError';
}

/**
 * Listens on the DHT under a fresh key pair (one per room, never derived from the code) and serves its streams
 * as one datagram socket: each stream's unordered messages (`trySend`, 'message') are one source, labelled by
 * the peer's address and a port of its own. What a stranger can make the room send and hold is bounded: connects
 * past their address's limit or the room-wide budget get no reply, streams that have not proved the code are capped
 * in number (the oldest closed) and closed after a short window, stream data (not our protocol) closes a stream; the
 * server never offers to relay, and serves this room's key only (hyperdht routes by key).
 */
export async function openDhtDoor(options: DhtDoorOptions): Promise<DhtDoor & { close(): Promise<void> }> {
  const { dht, scheduler, logger } = options;
  const random = options.randomBytes ?? ((size: number) => new Uint8Array(randomBytes(size)));
  const maxPending = options.maxPending ?? 16;
  const proofWindowMs = options.proofWindowMs ?? 10_000;
  const gate = createDhtConnectGate(() => scheduler.now(), options.connectBudget, options.connectsPerAddress);
  const streams = new Map<string, OpenStream>();
  let handlers: DatagramHandlers | undefined;
  let nextPort = 1;
  let closed = false;
  const pendingCount = () => [...streams.values()].filter((open) => !open.proved).length;

  const drop = (key: string) => {
    const open = streams.get(key);
    if (!open) return;
    streams.delete(key);
    if (open.timer !== undefined) scheduler.clearTimer(open.timer);
    if (!open.stream.destroyed) open.stream.destroy();
  };

  const onConnection = (stream: DhtStream) => {
    if (closed) {
      stream.destroy();
      return;
    }
    const source: DatagramSource = { address: stream.rawStream?.remoteHost ?? 'dht', port: nextPort };
    // Ports label streams only: they wrap long after any stream of that number is gone.
    nextPort = (nextPort % 65535) + 1;
    const key = keyOf(source);
    // Past the cap the oldest unproven stream goes: a flood cannot keep a real guest, who proves in one round
    // trip, from getting in.
    if (pendingCount() >= maxPending) {
      const oldest = [...streams].find(([, open]) => !open.proved)?.[0];
      if (oldest !== undefined) drop(oldest);
    }
    const timer = scheduler.setTimer(() => {
      if (streams.get(key)?.proved === false) {
        logger.warn(`DHT stream ${key} did not prove the code within ${proofWindowMs} ms: closed`);
        drop(key);
      }
    }, proofWindowMs);
    streams.set(key, { stream, proved: false, timer });
    stream.on('message', (message) => {
      if (!closed && streams.has(key)) handlers?.message(message, source);
    });
    // The stream's errors end it; they are the peer's business (a reset, a timeout), never the room's.
    stream.on('error', () => undefined);
    stream.on('close', () => drop(key));
    // Reliable stream data is no part of our protocol: a peer that sends any is closed.
    stream.on('data', (data) => {
      // An empty write is a keep-alive (the peer's secret stream sends them while idle).
      if (data.byteLength === 0) return;
      logger.warn(`DHT stream ${key} sent stream data: closed`);
      drop(key);
    });
  };

  const server: DhtServer = dht.createServer(
    {
      // Refused with no reply: a closed room, or past the address's or the room's connect budget.
      firewall: (_key, _payload, client) => closed || !gate.admit(client.host),
    },
    onConnection,
  );
  const keyPair = HyperDHT.keyPair(Buffer.from(random(32)));
  const listening = server.listen(keyPair);
  let timer: TimerHandle | undefined;
  try {
    await Promise.race([
      listening,
      new Promise<never>((_, reject) => {
        timer = scheduler.setTimer(
          () => reject(new DhtListenError('the DHT did not answer: no bootstrap node could be reached')),
          options.listenTimeoutMs ?? 20_000,
        );
      }),
    ]);
  } catch (error) {
    listening.catch(() => undefined);
    await server.close().catch(() => undefined);
    throw error;
  } finally {
    if (timer !== undefined) scheduler.clearTimer(timer);
  }
  const publicKey = keyPair.publicKey.toString('hex');
  logger.info(`listening on the DHT (room key ${publicKey.slice(0, 8)}…)`);

  const socket: DatagramSocket = {
    address: '0.0.0.0',
    port: 0,
    recvBufferSize: 0,
    sendBufferSize: 0,
    send(datagram, port, address) {
      const open = streams.get(`${address}:${port}`);
      if (!open || open.stream.destroyed) return true;
      open.stream.trySend(Buffer.from(datagram));
      return true;
    },
    listen(next) {
      if (handlers) throw new Error('listen() was already called on this socket');
      handlers = next;
    },
    connect: () => Promise.reject(new Error('a DHT door has no one remote')),
    close: () => close(),
  };

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    for (const key of [...streams.keys()]) drop(key);
    await server.close().catch((error: unknown) => logger.warn('the DHT server did not close cleanly', error));
  }

  return {
    socket,
    publicKey,
    proved(source) {
      const open = streams.get(keyOf(source));
      if (!open || open.proved) return;
      open.proved = true;
      gate.proved();
      if (open.timer !== undefined) scheduler.clearTimer(open.timer);
      open.timer = undefined;
    },
    release: (source) => drop(keyOf(source)),
    get held() {
      return { streams: streams.size, pending: pendingCount() };
    },
    close,
  };
}
