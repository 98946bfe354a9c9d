import { randomBytes } from 'node:crypto';
import { createIceSession, ownAddressOf, type IceSession, type SocketMux } from '../../net/ice';
import {
  answerGuestAgreement,
  KeyAgreementError,
  openSignal,
  sealSignal,
  secureSocket,
  type HostAgreement,
} from '../../net/secure';
import { encodeInternetCode, newCodeSecret } from '../../../shared/rendezvous';
import {
  startRendezvousHost,
  type JoinConfirmation,
  type JoinRequest,
  type RendezvousHostStatus,
} from './rendezvousHost';
import { internetJoinAgreement } from './internetJoinAgreement';
import { createAttemptBudget } from '../../base/attemptBudget';
import type { InternetSettings } from '../../../shared/ipc/schemas/internetSettings';
import { PlayerPath } from '../../../shared/lobby/lobbyState';
import type { DatagramSource } from '../../net/index';
import { Listeners } from '../../base/listeners';
import type { Logger } from '../../base/logger';
import type { Scheduler } from '../../base/scheduler';
import { iceServersFor } from './iceServers';

/**
 * The room-wide budget of code guesses: 20 at once, then one every 1.5 s (40 a minute against a 45-bit secret:
 * nothing a guesser can use), short enough that a real guest arriving just after an attack, waiting out one
 * refill by itself (budgetRetry.ts), is in within 2 s.
 */
export const CODE_GUESS_BUDGET = { burst: 20, refillMs: 1500 } as const;

/** A wait in seconds as a guest reads it: tenths under 10 s (the app waits it out to the tenth), whole above. */
export function retryWaitText(ms: number): string {
  return ms < 10_000 ? (Math.ceil(ms / 100) / 10).toString() : Math.ceil(ms / 1000).toString();
}

/** Options of {@link openInternetRoom}. */
export interface InternetRoomOptions {
  readonly settings: InternetSettings;
  /** The room's Server socket: each guest's secured ICE path is added to it. */
  readonly mux: SocketMux;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  /** Extra host-candidate addresses (werift skips veth/tun/tap interfaces). */
  readonly hostAddresses?: readonly string[];
  /** Seconds an ICE check may take per guest; default 10. */
  readonly connectTimeoutSeconds?: number;
  /** Guests setting up a path at once; more are turned away with "busy, try again". Default 4. */
  readonly maxPending?: number;
  /**
   * Join attempts that do not prove the code (a wrong code, or someone guessing through the rendezvous) the
   * room answers at once, whatever address they come from, then one every `refillMs` (main/base/attemptBudget.ts); the
   * rest are turned away with the wait. Default 20, then one every 1.5 s (CODE_GUESS_BUDGET).
   */
  readonly joinBudget?: { readonly burst: number; readonly refillMs: number };
  /** Randomness for the code's secret and the agreement; default node:crypto. */
  readonly randomBytes?: (size: number) => Uint8Array;
}

/** A room's presence on the rendezvous, and the paths of the guests who came through it. */
export interface InternetRoom {
  /** The NET-… code to share. */
  readonly code: string;
  readonly status: RendezvousHostStatus;
  onStatus(listener: (status: RendezvousHostStatus) => void): () => void;
  /** direct or relayed for a guest that came over the internet, lan for every other. */
  pathOf(source: DatagramSource): PlayerPath;
  /** The address an internet guest's own sealed parameters name (its public one), for the room's limits. */
  sourceOf(source: DatagramSource): string | undefined;
  /** Drops a guest's path once the Server let it go. */
  release(source: DatagramSource): Promise<void>;
  close(): Promise<void>;
}

const key = (source: DatagramSource): string => `${source.address}:${source.port}`;
/** How long a guest has, after our answer, to confirm: then its agreement is dropped. */
const CONFIRM_WINDOW_MS = 20_000;
/** Answers held at once while their guests confirm (the join budget bounds how fast they come). */
const MAX_WAITING_ANSWERS = 64;

/**
 * Registers the room with the rendezvous and answers each join: the password-authenticated key agreement on
 * the code's secret (the rendezvous never sees it), and only once the guest's confirmation checks (a failed
 * one counts against the room-wide budget) its sealed ICE parameters are read and ours sent back, sealed, so
 * a replayed or guessed offer makes us check no address; an ICE session per guest (we control), and once a
 * pair works the secured path joins the room's Server through the mux. No game traffic touches the rendezvous.
 * Rejects with a RendezvousError when the rendezvous cannot register the room.
 */
export async function openInternetRoom(options: InternetRoomOptions): Promise<InternetRoom> {
  const { settings, mux, logger, scheduler } = options;
  if (settings.rendezvousUrl === null) throw new Error('internet rooms need a rendezvous server (Settings)');
  const random = options.randomBytes ?? ((size: number) => new Uint8Array(randomBytes(size)));
  const { burst, refillMs } = options.joinBudget ?? CODE_GUESS_BUDGET;
  const budget = createAttemptBudget(() => scheduler.now(), burst, refillMs);
  const rendezvous = await startRendezvousHost({
    url: settings.rendezvousUrl,
    scheduler: options.scheduler,
    logger,
  });
  const paths = new Map<string, { path: PlayerPath; session: IceSession; own: string | undefined }>();
  const pending = new Set<IceSession>();
  const statusListeners = new Listeners<[RendezvousHostStatus]>((error) => logger.warn('status listener', error));
  let closed = false;

  const agreements = new Map<string, { agreement: HostAgreement; timer: unknown }>();
  const secret = newCodeSecret(random);
  const code = encodeInternetCode(rendezvous.roomId, secret);
  const context = internetJoinAgreement({ roomId: rendezvous.roomId, secret });

  const answerJoin = (request: JoinRequest): void => {
    if (pending.size >= (options.maxPending ?? 4)) {
      rendezvous.reject(request.joinId, 'The host is busy letting others in; try again in a moment.');
      return;
    }
    // Each answer lets the asker test one guess of the code: answers are budgeted for the whole room.
    const wait = budget.take();
    if (wait > 0) {
      logger.warn('internet joins: too many attempts that did not prove the code; turning joins away for now');
      rendezvous.reject(request.joinId, `Too many wrong codes for this room; try again in ${retryWaitText(wait)} s.`);
      return;
    }
    try {
      const agreement = answerGuestAgreement(context, Buffer.from(request.pake, 'base64url'), random);
      const timer = scheduler.setTimer(() => agreements.delete(request.joinId), CONFIRM_WINDOW_MS);
      agreements.set(request.joinId, { agreement, timer });
      // Answers waiting for a confirmation are cheap but bounded: the oldest goes first.
      if (agreements.size > MAX_WAITING_ANSWERS) {
        const [oldestId, oldest] = agreements.entries().next().value as [string, { timer: unknown }];
        scheduler.clearTimer(oldest.timer);
        agreements.delete(oldestId);
      }
      rendezvous.answer(request.joinId, Buffer.from(agreement.answer).toString('base64url'));
    } catch (error) {
      if (!(error instanceof KeyAgreementError)) throw error;
      rendezvous.reject(request.joinId, 'That join request was malformed.');
    }
  };

  const connectGuest = async (confirmation: JoinConfirmation): Promise<void> => {
    const entry = agreements.get(confirmation.joinId);
    if (!entry) return;
    agreements.delete(confirmation.joinId);
    scheduler.clearTimer(entry.timer);
    const keys = entry.agreement.confirm(Buffer.from(confirmation.pake, 'base64url'));
    const guestText = keys && openSignal(keys.signalGuestToHost, confirmation.sealed);
    if (!keys || guestText === undefined) {
      // A wrong code or a guess: counted for the whole room, whatever address or path it came by.
      logger.warn('an internet join failed the key confirmation (wrong code, or a guess)');
      rendezvous.reject(confirmation.joinId, 'Wrong code: check it with the host.');
      return;
    }
    budget.succeeded();
    let guestIce: { usernameFragment?: unknown; candidates?: unknown };
    try {
      guestIce = JSON.parse(guestText) as typeof guestIce;
    } catch {
      // Sealed with the room's keys yet not JSON: a broken or hostile guest. Said, never thrown (nothing awaits it).
      logger.warn('an internet guest sent ICE parameters that are not JSON');
      return;
    }
    // The code was proved: said to the rendezvous, which only now grants TURN, for this guest's session alone.
    const turn = await rendezvous.accept(confirmation.joinId).catch((error: unknown) => {
      logger.warn('the rendezvous did not take our accept of an internet guest', error);
      return undefined;
    });
    if (turn === undefined || closed) return;
    const session = createIceSession({
      controlling: true,
      ...iceServersFor(settings, turn),
      ...(options.hostAddresses ? { hostAddresses: options.hostAddresses } : {}),
      connectTimeoutSeconds: options.connectTimeoutSeconds ?? 10,
    });
    pending.add(session);
    try {
      const ours = await session.gather();
      rendezvous.signal(confirmation.joinId, sealSignal(keys.signalHostToGuest, JSON.stringify(ours), random));
      const path = await session.connect(guestIce);
      if (closed) throw new Error('room closed');
      const secured = secureSocket(session.socket, {
        sessionKeys: keys.datagramKeys(ours.usernameFragment, String(guestIce.usernameFragment)),
        role: 'host',
      });
      // The remote candidate's IP: guests from one IP share a synthetic address, so the room's password
      // backoff (keyed on the address) is per ICE origin, not per join.
      const origin = (await session.socket.connect(0, 'ice')).address;
      const source = mux.add(secured, origin);
      paths.set(key(source), {
        path: path.kind === 'relayed' ? PlayerPath.RELAYED : PlayerPath.DIRECT,
        session,
        // What the room's limits key on: the guest's own sealed address, not the relay every relayed guest shares.
        own: ownAddressOf(guestIce),
      });
      logger.info(
        `internet guest ${key(source)} connected ${path.kind} (${path.localType}→${path.remoteType}, ${Math.round(path.setupMs)} ms)`,
      );
    } catch (error) {
      logger.warn('an internet guest could not connect', error);
      await session.close();
    } finally {
      pending.delete(session);
    }
  };

  rendezvous.onJoinRequest((request) => answerJoin(request));
  rendezvous.onConfirm((confirmation) => void connectGuest(confirmation));
  rendezvous.onStatus((status) => statusListeners.emit(status));

  return {
    code,
    get status() {
      return rendezvous.status;
    },
    onStatus: (listener) => statusListeners.add(listener),
    pathOf: (source) => paths.get(key(source))?.path ?? PlayerPath.LAN,
    sourceOf: (source) => paths.get(key(source))?.own,
    async release(source) {
      const entry = paths.get(key(source));
      if (!entry) return;
      paths.delete(key(source));
      await mux.remove(source);
      await entry.session.close();
    },
    async close() {
      closed = true;
      for (const entry of agreements.values()) scheduler.clearTimer(entry.timer);
      agreements.clear();
      rendezvous.close();
      const sessions = [...pending, ...[...paths.values()].map((entry) => entry.session)];
      paths.clear();
      await Promise.all(sessions.map((session) => session.close()));
      statusListeners.clear();
    },
  };
}
