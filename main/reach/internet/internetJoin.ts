import { randomBytes } from 'node:crypto';
import { createIceSession, IceConnectError, IceParametersError, type IcePath } from '../../net/ice';
import { KeyAgreementError, sealSignal, secureSocket, startGuestAgreement, type SecureSocket } from '../../net/secure';
import { openRendezvousGuest } from './rendezvousGuest';
import { internetJoinAgreement } from './internetJoinAgreement';
import { openIceParameters } from './sealedIceParameters';
import {
  decodeInternetCode,
  RENDEZVOUS_ERROR_TEXT,
  RendezvousError,
  RendezvousErrorCode,
  type InternetCode,
} from '../../../shared/rendezvous';
import type { InternetSettings } from '../../../shared/ipc/schemas/internetSettings';
import { IpcError, IpcErrorCode } from '../../../shared/ipc/errors';
import type { Scheduler } from '../../base/scheduler';
import { iceServersFor } from './iceServers';
import { withBudgetRetry } from './budgetRetry';
import type { JoinStep, RoomTarget } from '../roomReach';

/** Options of {@link connectInternetRoom}. */
export interface InternetJoinOptions {
  readonly settings: InternetSettings;
  readonly scheduler: Scheduler;
  readonly onStep?: (step: JoinStep) => void;
  readonly hostAddresses?: readonly string[];
  /** Seconds the ICE checks may take; default 10. */
  readonly connectTimeoutSeconds?: number;
  /** Milliseconds without a direct pair before the progress says the relay is being tried; default 1500. */
  readonly relayHintMs?: number;
}

/** A secured path to an internet room's host, ready for a Client. */
export interface InternetPath {
  readonly socket: SecureSocket;
  readonly path: IcePath;
  /** Closes the ICE session (the Client closes the socket itself). */
  close(): Promise<void>;
}

/** An internet join failure as the player reads it: a sentence, with the raw cause behind "Details". */
function joinFailure(error: unknown, url: string): IpcError {
  if (error instanceof IpcError) return error;
  if (error instanceof RendezvousError) {
    const code =
      error.code === RendezvousErrorCode.ROOM_UNKNOWN
        ? IpcErrorCode.NOT_FOUND
        : error.code === RendezvousErrorCode.KEY_MISMATCH || error.code === RendezvousErrorCode.REJECTED
          ? IpcErrorCode.PERMISSION_DENIED
          : IpcErrorCode.UNAVAILABLE;
    const sentence = RENDEZVOUS_ERROR_TEXT[error.code];
    // The service's or the socket's own words (an errno, a room id) are for the Details toggle, not the sentence;
    // a host's reason for turning the join down is the one thing worth showing as it came.
    const shown = error.code === RendezvousErrorCode.REJECTED ? `${sentence} ${error.message}` : sentence;
    return new IpcError(code, shown, `${error.message} (rendezvous ${url})`);
  }
  if (error instanceof IceConnectError) return new IpcError(IpcErrorCode.UNAVAILABLE, error.message);
  return unreachableRoomError(error);
}

/** An internet join's unforeseen failure (rendezvous or direct): one sentence, the raw cause behind "Details". */
export function unreachableRoomError(error: unknown): IpcError {
  const raw = String((error as Error)?.message ?? error);
  return new IpcError(IpcErrorCode.UNAVAILABLE, 'Could not reach the internet room.', raw);
}

/**
 * Where the lobby sees a room found by an internet code, rendezvous or direct alike: the code itself labels the view
 * (upper-cased, at most 40 characters), and the Client connects to port 1 of it, since the secured path is the socket.
 */
export function locatedInternetRoom(code: string): { readonly target: RoomTarget; readonly connectTo: RoomTarget } {
  const host = code.trim().toUpperCase().slice(0, 40);
  return { target: { host, port: 0 }, connectTo: { host, port: 1 } };
}

/** A socket asked of a located internet room the guest has left. */
export function roomLeftError(): Error {
  return new Error('the internet room was left');
}

const random = (size: number) => new Uint8Array(randomBytes(size));

/**
 * One ask of the host through the rendezvous: a new guest connection, our share, its answer and the keys they
 * agree on. A wrong code or someone in between fails here, before anything of ours (no address, no ICE) is sent.
 */
async function askHost(url: string, code: InternetCode, scheduler: Scheduler) {
  const guest = await openRendezvousGuest({ url, scheduler });
  try {
    const agreement = startGuestAgreement(internetJoinAgreement(code), random);
    const answered = await guest.join(code.roomId, Buffer.from(agreement.offer).toString('base64url'));
    try {
      return { guest, agreed: agreement.finish(Buffer.from(answered.pake, 'base64url')) };
    } catch (error) {
      if (error instanceof KeyAgreementError) throw new RendezvousError(RendezvousErrorCode.KEY_MISMATCH);
      throw error;
    }
  } catch (error) {
    guest.close();
    throw error;
  }
}

/**
 * Joins an internet room's host as far as a working, encrypted datagram path: reads the NET-… code, runs the
 * password-authenticated key agreement with the host through the rendezvous (the code's secret is the
 * password; a host, or anyone in between, that cannot confirm it is refused, with no second guess on this
 * join), then swaps ICE parameters sealed under the agreed keys, runs ICE (direct first, the relay when no
 * direct pair works) and seals the path with keys bound to both ICE sessions. Rejects with an IpcError in
 * words: a mistyped code, the rendezvous unreachable, the room gone, no path and no relay.
 */
export async function connectInternetRoom(text: string, options: InternetJoinOptions): Promise<InternetPath> {
  const { settings } = options;
  const parsed = decodeInternetCode(text);
  if (!parsed.ok) throw new IpcError(IpcErrorCode.INVALID_ARGUMENT, parsed.reason);
  const url = settings.rendezvousUrl;
  if (url === null) {
    throw new IpcError(
      IpcErrorCode.FAILED_PRECONDITION,
      'That is an internet room code. Internet rooms need a rendezvous server: add one in Settings → Internet rooms.',
    );
  }
  const step = options.onStep ?? (() => undefined);
  step('finding-host');
  // A room under a guessing attack turns every join away for a second or two: waited out here, each try on a
  // fresh rendezvous connection (one join each) with fresh key-agreement shares.
  const asked = await withBudgetRetry(options.scheduler, () => askHost(url, parsed.code, options.scheduler)).catch(
    (error: unknown) => {
      throw joinFailure(error, url);
    },
  );
  const { guest, agreed } = asked;
  let session: ReturnType<typeof createIceSession> | undefined;
  let hint: unknown;
  try {
    // Our grant comes once the host checked our confirmation (none past our address's caps: then the welcome's
    // relay is our STUN); nothing of our ICE is gathered or sent before.
    const turn = await guest.confirm(Buffer.from(agreed.confirm).toString('base64url'));
    session = createIceSession({
      controlling: false,
      ...iceServersFor(settings, turn, guest.relays),
      ...(options.hostAddresses ? { hostAddresses: options.hostAddresses } : {}),
      connectTimeoutSeconds: options.connectTimeoutSeconds ?? 10,
    });
    const ours = await session.gather();
    guest.signal(sealSignal(agreed.keys.signalGuestToHost, JSON.stringify(ours), random));
    const sealedTheirs = await guest.nextSignal();
    const theirs = openIceParameters(agreed.keys.signalHostToGuest, sealedTheirs);
    if (!theirs.ok && theirs.reason === 'unsealed') throw new RendezvousError(RendezvousErrorCode.KEY_MISMATCH);
    if (!theirs.ok) throw new IceParametersError(theirs.detail);
    const hostIce = theirs.parameters;
    step('trying-direct');
    // Direct pairs answer within a few round trips; still checking after that means the relay is being tried.
    hint = options.scheduler.setTimer(() => step('using-relay'), options.relayHintMs ?? 1500);
    const path = await session.connect(hostIce);
    const socket = secureSocket(session.socket, {
      sessionKeys: agreed.keys.datagramKeys(hostIce.usernameFragment, ours.usernameFragment),
      role: 'guest',
    });
    if (path.kind === 'relayed') step('using-relay');
    const opened = session;
    return { socket, path, close: () => opened.close() };
  } catch (error) {
    await session?.close();
    throw joinFailure(error, url);
  } finally {
    if (hint !== undefined) options.scheduler.clearTimer(hint);
    // The rendezvous has done its part: the path does not depend on it.
    guest.close();
  }
}
