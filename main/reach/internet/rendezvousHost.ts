import {
  RendezvousError,
  RendezvousErrorCode,
  RendezvousKind,
  type ServiceMessage,
  type TurnGrant,
} from '../../../shared/rendezvous';
import { Listeners, reportCallbackError } from '../../base/listeners';
import type { Logger } from '../../base/logger';
import type { Scheduler, TimerHandle } from '../../base/scheduler';
import { openRendezvousConnection, type RendezvousConnection } from './rendezvousConnection';

/** Where a hosted internet room stands with the rendezvous. */
export type RendezvousHostStatus =
  | { readonly state: 'registered' }
  /** The connection dropped; retrying, next attempt in `retryInMs`. Guests cannot find the room meanwhile. */
  | { readonly state: 'reconnecting'; readonly error: RendezvousError; readonly retryInMs: number }
  /** The service no longer knows the room (hard cap reached, or its id went to another host): no more joins. */
  | { readonly state: 'expired'; readonly error: RendezvousError }
  | { readonly state: 'closed' };

/** A guest asking to join, forwarded by the service: its key-agreement offer (keyAgreement.ts). */
export interface JoinRequest {
  readonly joinId: string;
  readonly pake: string;
}

/** A guest's key confirmation, after our answer. */
export interface JoinConfirmation {
  readonly joinId: string;
  readonly pake: string;
}

/** A guest's sealed signal (its ICE parameters), after we accepted its join. */
export interface JoinSignal {
  readonly joinId: string;
  readonly sealed: string;
}

/** Options for {@link startRendezvousHost}. */
export interface RendezvousHostOptions {
  /** `ws://…/rendezvous/v1` from settings. */
  readonly url: string;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  /** A room registered before (kept across restarts of the app or the service); absent: a new room. */
  readonly room?: { readonly roomId: string; readonly roomSecret: string };
  /** Connect + welcome + registered; default 10 s. */
  readonly timeoutMs?: number;
  /** Keep-alive ping period and how long a pong may take before the connection counts as dead. */
  readonly pingIntervalMs?: number;
  readonly pongTimeoutMs?: number;
  /** Reconnect backoff: first wait, doubling up to the cap. */
  readonly retryInitialMs?: number;
  readonly retryMaxMs?: number;
}

/** A room registered with the rendezvous, kept registered until closed. */
export interface RendezvousHost {
  readonly roomId: string;
  /** Keep it to re-register the same room id later; never show it. */
  readonly roomSecret: string;
  /** Unix ms after which the service forgets the room regardless. */
  readonly expiresAt: number;
  readonly status: RendezvousHostStatus;
  /** The relays the service's welcome named (for STUN when a join's grant is null); empty while not connected. */
  readonly relays: readonly string[];
  onStatus(listener: (status: RendezvousHostStatus) => void): () => void;
  onJoinRequest(listener: (request: JoinRequest) => void): () => void;
  onConfirm(listener: (confirmation: JoinConfirmation) => void): () => void;
  onSignal(listener: (signal: JoinSignal) => void): () => void;
  /**
   * Tells the service the guest's confirmation checked (the code was proved) and waits (default 10 s) for the
   * TURN grant for our ICE session with that guest: null when the service mints none or is over its caps. The
   * service grants the guest its own now, and the signalling opens both ways. Call before {@link signal}.
   * Rejects with a RendezvousError (not connected, the join ended, no reply).
   */
  accept(joinId: string, timeoutMs?: number): Promise<TurnGrant | null>;
  /** These throw a RendezvousError when the rendezvous is not connected right now. */
  answer(joinId: string, pake: string): void;
  reject(joinId: string, reason: string): void;
  /** Sealed signalling to the guest (our ICE parameters), after its confirmation checked. */
  signal(joinId: string, sealed: string): void;
  /** Unregisters the room (best effort) and stops. Idempotent. */
  close(): void;
}

async function registerOn(
  connection: RendezvousConnection,
  room: { roomId: string; roomSecret: string } | undefined,
  timeoutMs: number,
): Promise<Extract<ServiceMessage, { kind: 'registered' }>> {
  connection.send({ kind: RendezvousKind.REGISTER, ...(room ? { room } : {}) });
  return connection.expect(
    (m) => (m.kind === RendezvousKind.REGISTERED ? m : undefined),
    (e) => e.joinId === undefined,
    timeoutMs,
  );
}

/**
 * Registers a room (or the given one again) and keeps it registered: pings to notice a dead link, and after a
 * drop (a restarted service, a lost network) reconnects with backoff and re-registers the SAME room id with
 * its secret, so the code players have keeps working. Rejects with a RendezvousError when the first
 * registration fails (service unreachable, room taken or expired).
 */
export async function startRendezvousHost(options: RendezvousHostOptions): Promise<RendezvousHost> {
  const { scheduler, logger, url } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const pingIntervalMs = options.pingIntervalMs ?? 20_000;
  const pongTimeoutMs = options.pongTimeoutMs ?? 10_000;
  const retryInitialMs = options.retryInitialMs ?? 1000;
  const retryMaxMs = options.retryMaxMs ?? 30_000;
  const statusListeners = new Listeners<[RendezvousHostStatus]>(reportCallbackError);
  const joinListeners = new Listeners<[JoinRequest]>(reportCallbackError);
  const confirmListeners = new Listeners<[JoinConfirmation]>(reportCallbackError);
  const signalListeners = new Listeners<[JoinSignal]>(reportCallbackError);

  const first = await openRendezvousConnection(url, { scheduler, timeoutMs });
  let registered;
  try {
    registered = await registerOn(first, options.room, timeoutMs);
  } catch (error) {
    first.close();
    throw error;
  }
  const room = { roomId: registered.roomId, roomSecret: registered.roomSecret };
  let expiresAt = registered.expiresAt;
  let connection: RendezvousConnection | null = first;
  let status: RendezvousHostStatus = { state: 'registered' };
  let retryMs = retryInitialMs;
  let retryTimer: TimerHandle | undefined;
  let pingTimer: TimerHandle | undefined;
  let pongTimer: TimerHandle | undefined;
  let unsubscribe: (() => void)[] = [];

  const setStatus = (next: RendezvousHostStatus) => {
    status = next;
    statusListeners.emit(next);
  };
  const stopTimers = () => {
    for (const t of [retryTimer, pingTimer, pongTimer]) if (t !== undefined) scheduler.clearTimer(t);
    retryTimer = pingTimer = pongTimer = undefined;
  };

  function attach(conn: RendezvousConnection): void {
    connection = conn;
    retryMs = retryInitialMs;
    unsubscribe = [
      conn.onMessage((message) => {
        switch (message.kind) {
          case RendezvousKind.JOIN_REQUEST:
            return joinListeners.emit({ joinId: message.joinId, pake: message.pake });
          case RendezvousKind.CONFIRM:
            return confirmListeners.emit({ joinId: message.joinId, pake: message.pake });
          case RendezvousKind.SIGNAL:
            return signalListeners.emit({ joinId: message.joinId, sealed: message.sealed });
          case RendezvousKind.PONG:
            if (pongTimer !== undefined) scheduler.clearTimer(pongTimer);
            pongTimer = undefined;
            return;
          case RendezvousKind.ERROR:
            if (message.code === RendezvousErrorCode.ROOM_UNKNOWN && message.joinId === undefined) {
              // The service dropped the room (hard cap): nothing to come back to.
              detach();
              stopTimers();
              conn.close();
              setStatus({ state: 'expired', error: new RendezvousError(message.code, message.message) });
            } else {
              logger.warn(`rendezvous: ${message.code}: ${message.message}`);
            }
            return;
          default:
            return;
        }
      }),
      conn.onClose((error) => lost(error)),
    ];
    pingTimer = scheduler.setRepeating(() => {
      if (pongTimer !== undefined) return;
      try {
        conn.send({ kind: RendezvousKind.PING });
      } catch {
        return;
      }
      pongTimer = scheduler.setTimer(() => {
        pongTimer = undefined;
        conn.close();
        lost(new RendezvousError(RendezvousErrorCode.UNREACHABLE, 'The rendezvous service stopped answering.'));
      }, pongTimeoutMs);
    }, pingIntervalMs);
  }

  function detach(): void {
    for (const stop of unsubscribe) stop();
    unsubscribe = [];
    connection = null;
  }

  function lost(error: RendezvousError): void {
    if (status.state === 'closed' || status.state === 'expired') return;
    detach();
    stopTimers();
    logger.warn(`rendezvous connection for room ${room.roomId} lost: ${error.message}`);
    scheduleRetry(error);
  }

  function scheduleRetry(error: RendezvousError): void {
    const wait = retryMs;
    retryMs = Math.min(retryMaxMs, retryMs * 2);
    setStatus({ state: 'reconnecting', error, retryInMs: wait });
    retryTimer = scheduler.setTimer(() => {
      retryTimer = undefined;
      // reconnect turns its failures into a status and the next retry; a throw from a status listener is logged.
      void reconnect().catch((error: unknown) => logger.error('rendezvous: registering again failed', error));
    }, wait);
  }

  async function reconnect(): Promise<void> {
    let conn: RendezvousConnection | undefined;
    try {
      conn = await openRendezvousConnection(url, { scheduler, timeoutMs });
      const again = await registerOn(conn, room, timeoutMs);
      if (status.state === 'closed') {
        conn.close();
        return;
      }
      expiresAt = again.expiresAt;
      attach(conn);
      logger.info(`room ${room.roomId} registered again with the rendezvous`);
      setStatus({ state: 'registered' });
    } catch (error) {
      conn?.close();
      if (status.state === 'closed') return;
      const failure =
        error instanceof RendezvousError ? error : new RendezvousError(RendezvousErrorCode.UNREACHABLE, String(error));
      if (failure.code === RendezvousErrorCode.ROOM_UNKNOWN || failure.code === RendezvousErrorCode.ROOM_TAKEN) {
        setStatus({ state: 'expired', error: failure });
        return;
      }
      scheduleRetry(failure);
    }
  }

  const live = (): RendezvousConnection => {
    if (!connection)
      throw new RendezvousError(RendezvousErrorCode.UNREACHABLE, 'Not connected to the rendezvous right now.');
    return connection;
  };

  attach(first);

  return {
    ...room,
    get expiresAt() {
      return expiresAt;
    },
    get status() {
      return status;
    },
    get relays() {
      return connection?.relays ?? [];
    },
    onStatus: (listener) => statusListeners.add(listener),
    onJoinRequest: (listener) => joinListeners.add(listener),
    onConfirm: (listener) => confirmListeners.add(listener),
    onSignal: (listener) => signalListeners.add(listener),
    async accept(joinId, acceptTimeoutMs = timeoutMs) {
      const conn = live();
      conn.send({ kind: RendezvousKind.ACCEPT, joinId });
      const granted = await conn.expect(
        (m) => (m.kind === RendezvousKind.TURN && m.joinId === joinId ? m : undefined),
        (e) => e.joinId === joinId,
        acceptTimeoutMs,
      );
      return granted.turn;
    },
    answer: (joinId, pake) => live().send({ kind: RendezvousKind.ANSWER, joinId, pake }),
    reject: (joinId, reason) => live().send({ kind: RendezvousKind.REJECT, joinId, reason: reason.slice(0, 200) }),
    signal: (joinId, sealed) => live().send({ kind: RendezvousKind.SIGNAL, joinId, sealed }),
    close() {
      if (status.state === 'closed') return;
      const conn = connection;
      detach();
      stopTimers();
      setStatus({ state: 'closed' });
      if (conn) {
        try {
          conn.send({ kind: RendezvousKind.UNREGISTER });
        } catch {
          // Gone already: the room expires after its grace.
        }
        conn.close();
      }
    },
  };
}
