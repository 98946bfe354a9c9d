import { IpcError, IpcErrorCode } from '../../shared/ipc/errors';
import type { Settings } from '../../shared/ipc/schemas/settings';
import type { Logger } from '../base/logger';
import type { JoinPlan, JoinStep, LocatedRoom, RoomTarget } from '../reach/roomReach';
import { advertVerdict, describeJoinFailure } from './joinFailure';
import type { LobbyGuest, LobbyJoinOptions } from './lobbyGuest';
import { lobbyNameOf } from './lobbyNames';

/** The player left while a host or a join was still on its way. */
export const leftBeforeDone = () =>
  new IpcError(IpcErrorCode.FAILED_PRECONDITION, 'Cancelled: you left before it finished.');

/** What {@link joinRoom} needs besides the reach's plan. */
export interface JoinRoomDeps {
  readonly password: string | undefined;
  readonly appVersion: string | undefined;
  /** Seconds the connect and the host's answer may take (the network options' join timeout). */
  readonly timeoutSec: number;
  readonly logger: Logger;
  /** The player's name and colour, read when the room is found. */
  readonly settings: () => Promise<Settings>;
  readonly joinGuest: (options: LobbyJoinOptions) => Promise<LobbyGuest>;
  /** False once the player left: the join stops and lets go of what it holds. */
  readonly wanted: () => boolean;
  /** The room as it becomes known, and the reach's step, for the joining view. */
  readonly onTarget: (target: RoomTarget, step?: JoinStep) => void;
}

/** A room joined: the guest, what the reach holds for the stay, and where the room is. */
export interface JoinedRoom {
  readonly guest: LobbyGuest;
  readonly located: LocatedRoom;
  readonly target: RoomTarget;
}

/**
 * A join: the reach locates the room, admission is refused at once when the room's advert already says no, the
 * guest connects through what the reach found (its relay, its socket, its shorter wait) and the host admits it.
 * Rejects with an IpcError in the player's words; what the reach held is let go on failure or when unwanted.
 */
export async function joinRoom(plan: JoinPlan, deps: JoinRoomDeps): Promise<JoinedRoom> {
  const { password } = deps;
  const passwordGiven = password !== undefined;
  let target = plan.provisional;
  let located: LocatedRoom | undefined;
  let guest: LobbyGuest;
  try {
    located = await plan.locate({
      passwordGiven,
      onProgress: (progress) => {
        if (!deps.wanted()) return;
        target = progress.target ?? target;
        deps.onTarget(target, progress.step);
      },
    });
    if (!deps.wanted()) throw leftBeforeDone();
    if (located.target.host !== target.host || located.target.port !== target.port) {
      target = located.target;
      deps.onTarget(target);
    }
    const refusal = located.advert && advertVerdict(located.advert, { appVersion: deps.appVersion, passwordGiven });
    if (refusal) throw refusal;
    const settings = await deps.settings();
    const to = located.connectTo ?? located.target;
    const { openSocket, connectWithin } = located;
    guest = await deps.joinGuest({
      host: to.host,
      port: to.port || 1,
      ...(openSocket ? { transport: { openSocket } } : {}),
      ...(connectWithin ? { connectWithin } : {}),
      playerName: lobbyNameOf(settings.playerName),
      colour: settings.playerColor,
      timeout: deps.timeoutSec,
      logger: deps.logger,
      ...(password !== undefined ? { password } : {}),
      ...(deps.appVersion !== undefined ? { appVersion: deps.appVersion } : {}),
    });
  } catch (error) {
    await located?.close();
    throw error instanceof IpcError ? error : describeJoinFailure(error, passwordGiven);
  }
  if (!deps.wanted()) {
    await guest.leave();
    await located.close();
    throw leftBeforeDone();
  }
  return { guest, located, target };
}
