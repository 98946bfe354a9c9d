import { RendezvousError, RendezvousErrorCode, RendezvousKind, type TurnGrant } from '../../../shared/rendezvous';
import type { Scheduler } from '../../base/scheduler';
import { openRendezvousConnection } from './rendezvousConnection';

/** Options for {@link openRendezvousGuest}. */
export interface RendezvousGuestOptions {
  readonly url: string;
  readonly scheduler: Scheduler;
  /** Connect + welcome; default 10 s. */
  readonly timeoutMs?: number;
}

/** The host's answer to our join: its key-agreement message. */
export interface JoinAnswer {
  readonly joinId: string;
  readonly pake: string;
}

/** A guest's connection to the rendezvous for one join: offer, answer, confirmation, then sealed signalling. */
export interface RendezvousGuest {
  /** The TURN servers' URLs from the welcome, for STUN only (a guest gets no credentials). */
  readonly relays: readonly string[];
  /**
   * Asks room `roomId` to let us in with our key-agreement offer and waits for the host's answer (default
   * 20 s). Rejects with a RendezvousError: room unknown or expired, room full, host away, rejected, timeout,
   * unreachable.
   */
  join(roomId: string, pake: string, answerTimeoutMs?: number): Promise<JoinAnswer>;
  /**
   * Our key confirmation, after {@link join} resolved; waits (default 20 s) for the host to accept it, and resolves
   * with our TURN grant (null: none minted, or over our address's caps). Rejects with a RendezvousError: the host
   * refused the confirmation (a wrong code), timeout, gone.
   */
  confirm(pake: string, timeoutMs?: number): Promise<TurnGrant | null>;
  /** Our sealed ICE parameters, after {@link confirm} resolved. */
  signal(sealed: string): void;
  /** The host's next sealed signal (its ICE parameters), or a RendezvousError (rejected, timeout, gone). */
  nextSignal(timeoutMs?: number): Promise<string>;
  close(): void;
}

/** Connects to the rendezvous as a guest; rejects with a RendezvousError (unreachable) when it cannot. */
export async function openRendezvousGuest(options: RendezvousGuestOptions): Promise<RendezvousGuest> {
  const { scheduler } = options;
  const connection = await openRendezvousConnection(options.url, { scheduler, timeoutMs: options.timeoutMs ?? 10_000 });
  let joinId: string | undefined;
  let joining = false;
  let pendingId: string | undefined;
  // The host's signals as they came (bounded by the service): one may arrive before nextSignal is called.
  const signals: string[] = [];
  connection.onMessage((message) => {
    if (message.kind === RendezvousKind.JOIN_PENDING && joining && pendingId === undefined) pendingId = message.joinId;
    if (message.kind === RendezvousKind.SIGNAL && message.joinId === joinId) signals.push(message.sealed);
  });
  const ours = (joinIdOfError: string | undefined) => joinIdOfError === undefined || joinIdOfError === pendingId;

  return {
    relays: connection.relays,
    async join(roomId, pake, answerTimeoutMs = 20_000) {
      if (joining) throw new RendezvousError(RendezvousErrorCode.NOT_ALLOWED, 'One join per connection.');
      joining = true;
      // Replies come in a later turn of the event loop, so none can slip past the wait armed just after.
      try {
        connection.send({ kind: RendezvousKind.JOIN, roomId, pake });
      } catch (error) {
        joining = false;
        throw error;
      }
      const message = await connection.expect(
        (m) => (m.kind === RendezvousKind.ANSWER && m.joinId === pendingId ? m : undefined),
        // Our join's errors, and the service's refusals of the join message itself (which name no join).
        (e) => ours(e.joinId),
        answerTimeoutMs,
      );
      joinId = message.joinId;
      return { joinId: message.joinId, pake: message.pake };
    },
    async confirm(pake, timeoutMs = 20_000) {
      const id = joinId;
      if (id === undefined) throw new RendezvousError(RendezvousErrorCode.NOT_ALLOWED, 'Join first.');
      connection.send({ kind: RendezvousKind.CONFIRM, joinId: id, pake });
      const granted = await connection.expect(
        (m) => (m.kind === RendezvousKind.TURN && m.joinId === id ? m : undefined),
        (e) => ours(e.joinId),
        timeoutMs,
      );
      return granted.turn;
    },
    signal(sealed) {
      if (joinId === undefined) throw new RendezvousError(RendezvousErrorCode.NOT_ALLOWED, 'Join first.');
      connection.send({ kind: RendezvousKind.SIGNAL, joinId, sealed });
    },
    async nextSignal(timeoutMs = 20_000) {
      const queued = signals.shift();
      if (queued !== undefined) return queued;
      const message = await connection.expect(
        (m) => (m.kind === RendezvousKind.SIGNAL && m.joinId === joinId ? m : undefined),
        (e) => ours(e.joinId),
        timeoutMs,
      );
      signals.splice(signals.indexOf(message.sealed), 1);
      return message.sealed;
    },
    close: () => connection.close(),
  };
}

/**
 * The relays a rendezvous names in its welcome (for STUN: an anonymous connection gets no credentials), from a short
 * connection closed at once; rejects with a RendezvousError when it does not answer within `timeoutMs`.
 */
export async function welcomeRelays(url: string, scheduler: Scheduler, timeoutMs = 3000): Promise<readonly string[]> {
  const guest = await openRendezvousGuest({ url, scheduler, timeoutMs });
  guest.close();
  return guest.relays;
}
