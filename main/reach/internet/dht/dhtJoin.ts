import HyperDHT, { type DhtStream } from 'hyperdht';
import { retryShortWaits } from '../../../base/retryShortWaits';
import type { Scheduler, TimerHandle } from '../../../base/scheduler';
import { PointToPointSocket } from '../../../net/ice';
import type { DatagramSource } from '../../../net/index';
import type { DhtCode } from '../../../../shared/rendezvous';
import { DirectJoinError, joinSealedDoor, type DirectJoinOptions, type DirectPath } from '../direct/directJoin';
import { dhtJoinAgreement } from '../internetJoinAgreement';
import { dhtJoinFailureOf, type DhtJoinFailure } from './dhtJoinFailure';
import { DHT_CONNECT_BUDGET } from './dhtDoor';

/** A connect through the DHT that found no path; `failure` says why in a way the reach words. */
export class DhtConnectError extends Error {
  override readonly name = 'DhtConnectError';
  constructor(
    readonly failure: DhtJoinFailure,
    message: string,
  ) {
    super(message);
  }
}

/** Options of {@link connectDhtRoom}. */
export interface DhtJoinOptions extends Pick<DirectJoinOptions, 'resendMs' | 'stepTimeoutMs' | 'randomBytes'> {
  readonly dht: HyperDHT;
  readonly scheduler: Scheduler;
  /**
   * Milliseconds the lookup and the punch may take; default 30 000. A randomizing NAT on one side took 0.9 s on a
   * quiet machine and over 14 s on a loaded one (its punch is a race of many probes); a room that is gone or two
   * randomizing NATs fail long before this, with the library's own error.
   */
  readonly connectTimeoutMs?: number;
}

/** The label of the host on a guest's DHT path (the stream has exactly one peer). */
const DHT_HOST: DatagramSource = { address: 'dht', port: 1 };

/** Opens a stream to the room's key; rejects with a DhtConnectError. */
function openStream(dht: HyperDHT, publicKey: string, scheduler: Scheduler, timeoutMs: number): Promise<DhtStream> {
  // A fresh key pair for each connection: rooms cannot tell this guest's connections apart by the node's key.
  const stream = dht.connect(Buffer.from(publicKey, 'hex'), { keyPair: HyperDHT.keyPair() });
  return new Promise<DhtStream>((resolve, reject) => {
    let timer: TimerHandle | undefined;
    const settle = (error: DhtConnectError | undefined) => {
      if (timer === undefined) return;
      scheduler.clearTimer(timer);
      timer = undefined;
      if (!error) return resolve(stream);
      stream.destroy();
      reject(error);
    };
    timer = scheduler.setTimer(
      () => settle(new DhtConnectError('timeout', `no path through the DHT within ${timeoutMs} ms`)),
      timeoutMs,
    );
    stream.on('open', () => settle(undefined));
    stream.on('error', (error) => settle(new DhtConnectError(dhtJoinFailureOf(error), error.message)));
    stream.on('close', () => settle(new DhtConnectError('unreachable', 'the DHT stream closed before it opened')));
  });
}

/**
 * Joins a DHT room as far as a sealed datagram path: a stream to the room's key through the DHT (lookup, Noise,
 * hole punch: hyperdht's), our CPace on the code's secret inside it, then every datagram sealed (secureSocket)
 * and carried as the stream's unordered messages. A host that cannot prove the secret fails with DirectJoinError
 * `mismatch` as a direct room's does; a room past its guess budget is waited out when the wait is short.
 */
export function connectDhtRoom(code: DhtCode, options: DhtJoinOptions): Promise<DirectPath> {
  return retryShortWaits(
    options.scheduler,
    async () => {
      const stream = await openStream(
        options.dht,
        code.publicKey,
        options.scheduler,
        options.connectTimeoutMs ?? 30_000,
      );
      const link = new PointToPointSocket({
        send: (datagram) => {
          stream.trySend(Buffer.from(datagram));
          return Promise.resolve();
        },
        subscribe: (receive) => {
          stream.on('message', receive);
          return () => stream.off('message', receive);
        },
        local: () => ({ address: '0.0.0.0', port: 0 }),
        remote: () => DHT_HOST,
        close: () => {
          stream.destroy();
          return Promise.resolve();
        },
      });
      // The stream's own errors after it opened end it; the path then falls silent and the Client's rejoin opens
      // a fresh one.
      stream.on('error', () => undefined);
      return joinSealedDoor(dhtJoinAgreement(code), DHT_HOST, link, options);
    },
    (error) => {
      if (error instanceof DirectJoinError && error.reason === 'busy') return error.waitMs;
      // A room past its connect budget (a flood of connects to its key) refuses with no reply, which reaches us as
      // unreachable: tried again once the budget has refilled (MAX_JOIN_TRIES in all, then said in words).
      if (error instanceof DhtConnectError && error.failure === 'unreachable') return DHT_CONNECT_BUDGET.refillMs;
      return undefined;
    },
  );
}
