import {
  RendezvousError,
  RendezvousErrorCode,
  RendezvousKind,
  type PeerOffer,
  type TurnGrant,
} from '../../../shared/rendezvous';
import { Listeners, reportCallbackError } from '../../base/listeners';
import type { Scheduler } from '../../base/scheduler';
import { hostKeyMatches } from './hostKeyCheck';
import { openRendezvousConnection } from './rendezvousConnection';

/** Options for {@link openRendezvousGuest}. */
export interface RendezvousGuestOptions {
  readonly url: string;
  readonly scheduler: Scheduler;
  /** Connect + welcome; default 10 s. */
  readonly timeoutMs?: number;
}

/** The host's answer, its key already checked against the code. */
export interface JoinAnswer {
  readonly joinId: string;
  readonly answer: PeerOffer;
}

/** A guest's connection to the rendezvous: TURN grant first (to gather with), then one join. */
export interface RendezvousGuest {
  readonly turn: TurnGrant | null;
  /**
   * Asks room `roomId` to let us in and waits for the host's answer (default 20 s). Rejects with a
   * RendezvousError: room unknown or expired, room full, host away, rejected, timeout, unreachable, and
   * key-mismatch when the answer's public key is not the one `keyCheck` (from the code) names.
   */
  join(roomId: string, keyCheck: string, offer: PeerOffer, answerTimeoutMs?: number): Promise<JoinAnswer>;
  /** Trickles one of our candidates to the host (null: end of candidates); after {@link join} resolved. */
  sendCandidate(candidate: string | null): void;
  /** The host's trickled candidates; null is its end. A listener added after the join first gets those already in. */
  onCandidate(listener: (candidate: string | null) => void): () => void;
  close(): void;
}

/** Connects to the rendezvous as a guest; rejects with a RendezvousError (unreachable) when it cannot. */
export async function openRendezvousGuest(options: RendezvousGuestOptions): Promise<RendezvousGuest> {
  const { scheduler } = options;
  const connection = await openRendezvousConnection(options.url, { scheduler, timeoutMs: options.timeoutMs ?? 10_000 });
  const candidates = new Listeners<[string | null]>(reportCallbackError);
  let joinId: string | undefined;
  let joining = false;
  let pendingId: string | undefined;
  // The host's candidates as they came (bounded by the service's trickle limit): ws may deliver the answer
  // and the first candidates in one turn, before the caller, awaiting join(), can add a listener.
  const received: (string | null)[] = [];
  connection.onMessage((message) => {
    if (message.kind === RendezvousKind.JOIN_PENDING && joining && pendingId === undefined) pendingId = message.joinId;
    if (pendingId === undefined || !('joinId' in message) || message.joinId !== pendingId) return;
    const candidate =
      message.kind === RendezvousKind.CANDIDATE
        ? message.candidate
        : message.kind === RendezvousKind.END_OF_CANDIDATES
          ? null
          : undefined;
    if (candidate === undefined) return;
    received.push(candidate);
    if (joinId !== undefined) candidates.emit(candidate);
  });

  return {
    turn: connection.turn,
    async join(roomId, keyCheck, offer, answerTimeoutMs = 20_000) {
      if (joining) throw new RendezvousError(RendezvousErrorCode.NOT_ALLOWED, 'One join per connection.');
      joining = true;
      // Send first: a refused (too large) offer throws here, before a wait is armed. Replies come in a later
      // turn of the event loop, so none can slip past the wait armed just after.
      try {
        connection.send({ kind: RendezvousKind.JOIN, roomId, offer });
      } catch (error) {
        joining = false;
        throw error;
      }
      const answered = connection.expect(
        (m) => (m.kind === RendezvousKind.ANSWER && m.joinId === pendingId ? m : undefined),
        // Our join's errors, and the service's refusals of the join message itself (which name no join).
        (e) => e.joinId === undefined || e.joinId === pendingId,
        answerTimeoutMs,
      );
      const message = await answered;
      if (!hostKeyMatches(message.answer.publicKey, keyCheck)) {
        connection.close();
        throw new RendezvousError(RendezvousErrorCode.KEY_MISMATCH);
      }
      joinId = message.joinId;
      return { joinId: message.joinId, answer: message.answer };
    },
    sendCandidate(candidate) {
      if (joinId === undefined) throw new RendezvousError(RendezvousErrorCode.NOT_ALLOWED, 'Join first.');
      connection.send(
        candidate === null
          ? { kind: RendezvousKind.END_OF_CANDIDATES, joinId }
          : { kind: RendezvousKind.CANDIDATE, joinId, candidate },
      );
    },
    onCandidate(listener) {
      // Candidates that came before the listener was added first, in order.
      if (joinId !== undefined) for (const candidate of received) listener(candidate);
      return candidates.add(listener);
    },
    close: () => connection.close(),
  };
}
