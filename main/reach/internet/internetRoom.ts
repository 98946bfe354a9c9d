import { randomBytes } from 'node:crypto';
import { createIceSession, ownAddressOf, type IceSession, type SocketMux } from '../../net/ice';
import {
  answerGuestAgreement,
  KeyAgreementError,
  sealSignal,
  secureSocket,
  type HostAgreement,
} from '../../net/secure';
import { encodeInternetCode, newCodeSecret } from '../../../shared/rendezvous';
import {
  startRendezvousHost,
  type JoinConfirmation,
  type JoinRequest,
  type RendezvousHost,
  type RendezvousHostOptions,
  type RendezvousHostStatus,
} from './rendezvousHost';
import { internetJoinAgreement } from './internetJoinAgreement';
import { openIceParameters } from './sealedIceParameters';
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

/** The room-wide guess budget's refusal, rendezvous and direct alike; budgetRetry.ts reads its wait back. */
export function wrongCodesText(waitMs: number): string {
  return `Too many wrong codes for this room; try again in ${retryWaitText(waitMs)} s.`;
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
  /**
   * Players the room seats: guests' paths beyond it plus `maxPending` are turned away ("the room is full"), so a
   * code-holder cannot hold open more ICE sessions than the room could ever admit. Default 16.
   */
  readonly capacity?: number;
  /** Milliseconds a guest's new path has to be admitted by the room's Server ({@link InternetRoom.admitted}); default 5000. */
  readonly helloWindowMs?: number;
  /** Registers the room with the rendezvous; default startRendezvousHost (tests put a tap in front of it). */
  readonly startRendezvous?: (options: RendezvousHostOptions) => Promise<RendezvousHost>;
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
  /**
   * The room's Server took a peer at `source` (a hello, or a seat moved onto a restarted path): its path is kept and
   * the join's guess token comes back. A path not admitted within the hello window is released.
   */
  admitted(source: DatagramSource): void;
  /** Drops a guest's path once the Server let it go. */
  release(source: DatagramSource): Promise<void>;
  close(): Promise<void>;
}

const key = (source: DatagramSource): string => `${source.address}:${source.port}`;
/** How long a guest has, after our answer, to confirm: then its agreement is dropped. */
const CONFIRM_WINDOW_MS = 20_000;
/** How long an accepted guest has to send its sealed ICE parameters (it gathers them with its relay first). */
const SIGNAL_WINDOW_MS = 20_000;
/** Answers held at once while their guests confirm (the join budget bounds how fast they come). */
const MAX_WAITING_ANSWERS = 64;
/** One guest's path: how it came, its ICE session, its own address, and whether the Server admitted it yet. */
interface GuestPath {
  readonly path: PlayerPath;
  readonly session: IceSession;
  readonly own: string | undefined;
  admitted: boolean;
  helloTimer: unknown;
}

/**
 * Registers the room with the rendezvous and answers each join: the password-authenticated key agreement on
 * the code's secret (the rendezvous never sees it), and only once the guest's confirmation checks (a failed
 * one counts against the room-wide budget) the join is accepted (TURN for both sides), ours sent, sealed, and the
 * guest's sealed ICE parameters read, so a replayed or guessed offer makes us check no address; an ICE session per guest (we control), and once a
 * pair works the secured path joins the room's Server through the mux. No game traffic touches the rendezvous.
 * Rejects with a RendezvousError when the rendezvous cannot register the room.
 */
export async function openInternetRoom(options: InternetRoomOptions): Promise<InternetRoom> {
  const { settings, mux, logger, scheduler } = options;
  if (settings.rendezvousUrl === null) throw new Error('internet rooms need a rendezvous server (Settings)');
  const random = options.randomBytes ?? ((size: number) => new Uint8Array(randomBytes(size)));
  const { burst, refillMs } = options.joinBudget ?? CODE_GUESS_BUDGET;
  const budget = createAttemptBudget(() => scheduler.now(), burst, refillMs);
  const maxPending = options.maxPending ?? 4;
  const maxPaths = (options.capacity ?? 16) + maxPending;
  const helloWindowMs = options.helloWindowMs ?? 5000;
  const rendezvous = await (options.startRendezvous ?? startRendezvousHost)({
    url: settings.rendezvousUrl,
    scheduler: options.scheduler,
    logger,
  });
  const paths = new Map<string, GuestPath>();
  const pending = new Set<IceSession>();
  const statusListeners = new Listeners<[RendezvousHostStatus]>((error) => logger.warn('status listener', error));
  let closed = false;

  const agreements = new Map<string, { agreement: HostAgreement; timer: unknown }>();
  // Accepted joins waiting for their guest's sealed ICE parameters: joinId → the waiter (guestSignal).
  const guestSignals = new Map<string, (sealed: string | undefined) => void>();
  const secret = newCodeSecret(random);
  const code = encodeInternetCode(rendezvous.roomId, secret);
  const context = internetJoinAgreement({ roomId: rendezvous.roomId, secret });

  /**
   * Why a join is turned away before any ICE: a full room, or too many paths being set up; undefined: go on. Paths
   * the Server took a peer on are its own to bound (and released when it lets them go); those not admitted yet
   * count, so paths that never say hello cannot pile up between their 5 s windows.
   */
  const refusal = (): string | undefined => {
    const waiting = [...paths.values()].filter((path) => !path.admitted).length;
    if (waiting + pending.size >= maxPaths) return 'The room is full.';
    if (pending.size >= maxPending) return 'The host is busy letting others in; try again in a moment.';
    return undefined;
  };

  const answerJoin = (request: JoinRequest): void => {
    const refused = refusal();
    if (refused !== undefined) {
      rendezvous.reject(request.joinId, refused);
      return;
    }
    // Each answer lets the asker test one guess of the code: answers are budgeted for the whole room.
    const wait = budget.take();
    if (wait > 0) {
      logger.warn('internet joins: too many attempts that did not prove the code; turning joins away for now');
      rendezvous.reject(request.joinId, wrongCodesText(wait));
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

  /**
   * The accepted guest's sealed ICE parameters (the first signal of its join), or undefined when none came within
   * SIGNAL_WINDOW_MS. Armed before the accept, since the guest signals as soon as its grant comes; `cancel` drops it.
   */
  const guestSignal = (joinId: string): { sealed: Promise<string | undefined>; cancel: () => void } => {
    let finish: (sealed: string | undefined) => void = () => undefined;
    const sealed = new Promise<string | undefined>((resolve) => {
      const timer = scheduler.setTimer(() => finish(undefined), SIGNAL_WINDOW_MS);
      finish = (value) => {
        scheduler.clearTimer(timer);
        if (guestSignals.get(joinId) === finish) guestSignals.delete(joinId);
        resolve(value);
      };
      guestSignals.set(joinId, finish);
    });
    return { sealed, cancel: () => finish(undefined) };
  };

  const connectGuest = async (confirmation: JoinConfirmation): Promise<void> => {
    const entry = agreements.get(confirmation.joinId);
    if (!entry) return;
    agreements.delete(confirmation.joinId);
    scheduler.clearTimer(entry.timer);
    const keys = entry.agreement.confirm(Buffer.from(confirmation.pake, 'base64url'));
    if (!keys) {
      // A wrong code or a guess: counted for the whole room, whatever address or path it came by.
      logger.warn('an internet join failed the key confirmation (wrong code, or a guess)');
      rendezvous.reject(confirmation.joinId, 'Wrong code: check it with the host.');
      return;
    }
    const theirs = guestSignal(confirmation.joinId);
    try {
      await iceWithGuest(confirmation.joinId, keys, theirs.sealed);
    } finally {
      theirs.cancel();
    }
  };

  /**
   * After a confirmation checked: the accept (both sides' TURN grants), the guest's sealed ICE parameters, and only
   * once they read well our ICE session, our parameters back and the checks: a code-holder sealing anything else
   * costs the room no ICE session.
   */
  const iceWithGuest = async (
    joinId: string,
    keys: NonNullable<ReturnType<HostAgreement['confirm']>>,
    theirSignal: Promise<string | undefined>,
  ): Promise<void> => {
    // The code was proved: said to the rendezvous (which only now grants TURN, to us and to the guest, and opens the
    // signalling), also when the room then turns the guest away, so the guest's address is not held to its
    // unproven joins.
    const turn = await rendezvous.accept(joinId).catch((error: unknown) => {
      logger.warn('the rendezvous did not take our accept of an internet guest', error);
      return undefined;
    });
    if (turn === undefined || closed) return;
    const sealed = await theirSignal;
    if (closed) return;
    if (sealed === undefined) {
      logger.warn(`an internet guest sent no ICE parameters within ${SIGNAL_WINDOW_MS} ms`);
      return;
    }
    const opened = openIceParameters(keys.signalGuestToHost, sealed);
    if (!opened.ok) {
      // It proved the code, yet sealed no parameters: a broken or hostile code-holder. Said, never thrown (nothing
      // awaits this handler), and its guess token stays spent: only an admitted guest gets it back.
      logger.warn(`an internet guest's join was refused: ${opened.detail}`);
      rendezvous.reject(joinId, 'That join request was malformed.');
      return;
    }
    const guestIce = opened.parameters;
    // Answers given before the room filled (or before others confirmed) are checked again: no ICE past the cap.
    const refused = refusal();
    if (refused !== undefined) {
      rendezvous.reject(joinId, refused);
      return;
    }
    const session = createIceSession({
      controlling: true,
      // Without a grant (none minted, or past the caps) the welcome's relay still gives us STUN (our public address).
      ...iceServersFor(settings, turn, rendezvous.relays),
      ...(options.hostAddresses ? { hostAddresses: options.hostAddresses } : {}),
      connectTimeoutSeconds: options.connectTimeoutSeconds ?? 10,
    });
    pending.add(session);
    try {
      const ours = await session.gather();
      rendezvous.signal(joinId, sealSignal(keys.signalHostToGuest, JSON.stringify(ours), random));
      const path = await session.connect(guestIce);
      if (closed) throw new Error('room closed');
      const secured = secureSocket(session.socket, {
        sessionKeys: keys.datagramKeys(ours.usernameFragment, guestIce.usernameFragment),
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
        admitted: false,
        // A path the Server never takes a peer on (no hello) would hold its sockets until the room closes.
        helloTimer: scheduler.setTimer(() => {
          if (paths.get(key(source))?.admitted !== false) return;
          logger.warn(`internet guest ${key(source)} said no hello within ${helloWindowMs} ms: its path is released`);
          void room.release(source).catch((error: unknown) => logger.warn('releasing a silent path', error));
        }, helloWindowMs),
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
  // A guest's path failing is logged and the room carries on: nothing else awaits it.
  rendezvous.onConfirm(
    (confirmation) =>
      void connectGuest(confirmation).catch((error: unknown) => logger.warn('an internet join failed', error)),
  );
  rendezvous.onSignal((signal) => guestSignals.get(signal.joinId)?.(signal.sealed));
  rendezvous.onStatus((status) => statusListeners.emit(status));

  const room: InternetRoom = {
    code,
    get status() {
      return rendezvous.status;
    },
    onStatus: (listener) => statusListeners.add(listener),
    pathOf: (source) => paths.get(key(source))?.path ?? PlayerPath.LAN,
    sourceOf: (source) => paths.get(key(source))?.own,
    admitted(source) {
      const entry = paths.get(key(source));
      if (!entry || entry.admitted) return;
      entry.admitted = true;
      scheduler.clearTimer(entry.helloTimer);
      // The join proved the code and the guest is in: its guess token comes back.
      budget.succeeded();
    },
    async release(source) {
      const entry = paths.get(key(source));
      if (!entry) return;
      paths.delete(key(source));
      scheduler.clearTimer(entry.helloTimer);
      await mux.remove(source);
      await entry.session.close();
    },
    async close() {
      closed = true;
      for (const entry of agreements.values()) scheduler.clearTimer(entry.timer);
      agreements.clear();
      for (const finish of [...guestSignals.values()]) finish(undefined);
      rendezvous.close();
      for (const entry of paths.values()) scheduler.clearTimer(entry.helloTimer);
      const sessions = [...pending, ...[...paths.values()].map((entry) => entry.session)];
      paths.clear();
      await Promise.all(sessions.map((session) => session.close()));
      statusListeners.clear();
    },
  };
  return room;
}
