import { randomBytes } from 'node:crypto';
import HyperDHT, { type DhtServer, type DhtStream } from 'hyperdht';
import { createAttemptBudget } from '../../../base/attemptBudget';
import type { Logger } from '../../../base/logger';
import type { Scheduler, TimerHandle } from '../../../base/scheduler';
import type { DatagramHandlers, DatagramSocket, DatagramSource } from '../../../net/index';
import { CODE_GUESS_BUDGET } from '../internetRoom';

/** Options of {@link openDhtDoor}. */
export interface DhtDoorOptions {
  readonly dht: HyperDHT;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  /** Streams that have not proved the code yet, at once; a connect past it is refused before any reply. Default 16. */
  readonly maxPending?: number;
  /** Milliseconds a stream has to prove the code before it is closed; default 10 000. */
  readonly proofWindowMs?: number;
  /** Connects accepted at once, then one every refillMs (a proof gives its token back); default CODE_GUESS_BUDGET. */
  readonly connectBudget?: { readonly burst: number; readonly refillMs: number };
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
 * the peer's address and a port of its own. What a stranger can make the room hold is bounded before a reply:
 * connects are budgeted room-wide, streams that have not proved the code are capped in number and closed after
 * a short window; the server never offers to relay, and accepts connections only to this room's key (hyperdht
 * routes by key).
 */
export async function openDhtDoor(options: DhtDoorOptions): Promise<DhtDoor & { close(): Promise<void> }> {
  const { dht, scheduler, logger } = options;
  const random = options.randomBytes ?? ((size: number) => new Uint8Array(randomBytes(size)));
  const maxPending = options.maxPending ?? 16;
  const proofWindowMs = options.proofWindowMs ?? 10_000;
  const { burst, refillMs } = options.connectBudget ?? CODE_GUESS_BUDGET;
  const budget = createAttemptBudget(() => scheduler.now(), burst, refillMs);
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
    stream.on('data', () => {
      logger.warn(`DHT stream ${key} sent stream data: closed`);
      drop(key);
    });
  };

  const server: DhtServer = dht.createServer(
    {
      // Refused before any reply: a closed room, too many streams still unproven, or past the room's budget.
      firewall: () => {
        if (closed || pendingCount() >= maxPending) return true;
        return budget.take() > 0;
      },
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
      budget.succeeded();
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
