import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import type { Settings } from '../../shared/ipc/schemas/settings';
import { lobbyNameOf } from './lobbyNames';
import type { Logger } from '../base/logger';
import { retryShortWaits } from '../base/retryShortWaits';
import type { Scheduler } from '../base/scheduler';
import type { JoinRequest, JoinStep, LocatedRoom, RoomReach, RoomTarget } from '../reach/roomReach';
import { advertVerdict, describeJoinFailure } from './joinFailure';
import { LobbyJoinError } from './lobbyErrors';
import { LobbyGuest, type LobbyJoinOptions } from './lobbyGuest';

/** The player left while a host or a join was still on its way. */
export const leftBeforeDone = () =>
  new IpcError(IpcErrorCode.FAILED_PRECONDITION, 'Cancelled: you left before it finished.');

/** What {@link joinRoom} needs besides the reach and the request. */
export interface JoinRoomDeps {
  readonly password: string | undefined;
  readonly appVersion: string | undefined;
  /** Seconds the connect and the host's answer may take (the network options' join timeout). */
  readonly timeoutSec: number;
  readonly logger: Logger;
  /** Waits out a host's short "Too many tries, wait N s" (a room-wide budget just after an attack). */
  readonly scheduler: Scheduler;
  /** The player's name and colour, read when the room is found. */
  readonly settings: () => Promise<Settings>;
  /** LobbyGuest.join unless a test swaps it. */
  readonly joinGuest?: (options: LobbyJoinOptions) => Promise<LobbyGuest>;
  /** Aborted once the player left: the join stops and lets go of what it holds. */
  readonly signal: AbortSignal;
  /** The room as it becomes known, and the reach's step, for the joining view. */
  readonly onTarget: (target: RoomTarget, step?: JoinStep) => void;
}

/** A room joined: the guest, and where the reach found the room and what it holds for the stay. */
export interface JoinedRoom {
  readonly guest: LobbyGuest;
  readonly located: LocatedRoom;
}

/** A join, each part entered once: the reach locates, the advert may refuse early, then connect and admission. */
// Rejects with an IpcError in the player's words; what the reach held is let go on failure or when unwanted.
export async function joinRoom(reach: RoomReach, request: JoinRequest, deps: JoinRoomDeps): Promise<JoinedRoom> {
  const { password, signal } = deps;
  const joinGuest = deps.joinGuest ?? ((options: LobbyJoinOptions) => LobbyGuest.join(options));
  const passwordGiven = password !== undefined;
  let target: RoomTarget | undefined;
  let located: LocatedRoom | undefined;
  let guest: LobbyGuest;
  try {
    located = await reach.locate(request, {
      onProgress: (progress) => {
        target = progress.target ?? target;
        if (!signal.aborted && target) deps.onTarget(target, progress.step);
      },
    });
    if (signal.aborted) throw leftBeforeDone();
    if (located.target.host !== target?.host || located.target.port !== target.port) {
      target = located.target;
      deps.onTarget(target);
    }
    const refusal = located.advert && advertVerdict(located.advert, { appVersion: deps.appVersion, passwordGiven });
    if (refusal) throw refusal;
    const settings = await deps.settings();
    const to = located.connectTo ?? located.target;
    const { openSocket, connectWithin, rejoinTimeoutSec } = located;
    // Asked again, the located room opens a fresh path (over the internet, a new ICE session): a refused
    // connection is not reused; one that cannot be opened fails in the reach's words (LobbyGuest passes them on).
    const admitted = async () => {
      if (signal.aborted) throw leftBeforeDone(); // left while it waited
      return joinGuest({
        host: to.host,
        port: to.port || 1,
        ...(openSocket ? { transport: { openSocket } } : {}),
        ...(connectWithin ? { connectWithin } : {}),
        ...(rejoinTimeoutSec !== undefined ? { rejoinTimeout: rejoinTimeoutSec } : {}),
        playerName: lobbyNameOf(settings.playerName),
        colour: settings.playerColor,
        timeout: deps.timeoutSec,
        logger: deps.logger,
        ...(password !== undefined ? { password } : {}),
        ...(deps.appVersion !== undefined ? { appVersion: deps.appVersion } : {}),
      });
    };
    guest = await retryShortWaits(deps.scheduler, admitted, (error) =>
      error instanceof LobbyJoinError && error.code === 'too-many-tries' && !signal.aborted
        ? error.retryAfterMs
        : undefined,
    );
  } catch (error) {
    await located?.close();
    throw error instanceof IpcError ? error : describeJoinFailure(error, passwordGiven);
  }
  if (signal.aborted) {
    await guest.leave();
    await located.close();
    throw leftBeforeDone();
  }
  return { guest, located };
}
