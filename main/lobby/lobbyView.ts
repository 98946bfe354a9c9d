import { IDLE_LOBBY_VIEW } from '../../shared/ipc/schemas/lobby';
import type { LobbyView, LobbyViewEnd } from '../../shared/ipc/schemas/lobby';
import type { LobbyState } from '../../shared/lobby/lobbyState';
import { decode, encode } from '../../shared/roomCode';
import type { LanAddress, RoomCodes } from '../reach/lan/index';
import type { JoinStep, RoomTarget } from '../reach/roomReach';

export type { RoomTarget };

/** The lobby service's situation, as plain data (the live host or guest object is kept elsewhere). */
export type LobbyPhase =
  | { readonly kind: 'idle' }
  | { readonly kind: 'opening' }
  | { readonly kind: 'joining'; readonly target: RoomTarget; readonly step?: JoinStep }
  | {
      readonly kind: 'hosting';
      readonly codes: RoomCodes;
      readonly target: RoomTarget;
      readonly addresses: readonly Pick<LanAddress, 'interfaceName' | 'address'>[];
      readonly discoverable: boolean;
      readonly state: LobbyState;
      readonly internet?: InternetView;
      /** The seat grace the room was opened with, seconds. */
      readonly seatGraceSec?: number;
    }
  | {
      readonly kind: 'guest';
      readonly target: RoomTarget;
      readonly you: number;
      readonly state: LobbyState;
      /** The NET-… code when the room was joined over the internet. */
      readonly internetCode?: string;
      /** The room's short LAN code as this guest's network completes it (roomCodes.ts guestShortCode). */
      readonly shortCode?: string | null;
    }
  | {
      readonly kind: 'ended';
      readonly end: LobbyViewEnd;
      readonly target: RoomTarget;
      readonly you: number;
      readonly state: LobbyState;
    };

export { IDLE_LOBBY_VIEW };

/** An internet room as the view shows it. */
export type InternetView = NonNullable<LobbyView['internet']>;

/** The room code for an address, or null when it cannot have one (not IPv4). */
export function codeFor(target: RoomTarget): string | null {
  try {
    return encode(target.host, target.port);
  } catch {
    return null;
  }
}

/** The renderer's view model of a phase at the service's `revision` (0 for a view outside the service). Pure. */
export function lobbyViewOf(phase: LobbyPhase, revision = 0): LobbyView {
  return { ...viewOf(phase), revision };
}

function viewOf(phase: LobbyPhase): Omit<LobbyView, 'revision'> {
  switch (phase.kind) {
    case 'idle':
      return IDLE_LOBBY_VIEW;
    case 'opening':
      return { ...IDLE_LOBBY_VIEW, status: 'hosting', role: 'host' };
    case 'joining':
      return {
        ...IDLE_LOBBY_VIEW,
        status: 'joining',
        role: 'guest',
        target: { ...phase.target },
        joinStep: phase.step ?? null,
      };
    case 'hosting':
      return {
        status: 'in-room',
        role: 'host',
        code: phase.codes.code,
        shortCode: phase.codes.shortCode,
        shortCodeMissing: phase.codes.shortCodeMissing,
        addresses: phase.addresses.map(({ interfaceName, address }) => ({ interfaceName, address })),
        port: phase.target.port,
        target: { ...phase.target },
        you: 0,
        state: phase.state,
        discoverable: phase.discoverable,
        end: null,
        internet: phase.internet ? { ...phase.internet } : null,
        seatGraceSec: phase.seatGraceSec ?? null,
      };
    case 'guest':
      return {
        ...IDLE_LOBBY_VIEW,
        status: 'in-room',
        role: 'guest',
        code: phase.internetCode ?? codeFor(phase.target),
        // The same short code as the host's screen, so a guest asked for the code reads out five characters.
        shortCode: phase.internetCode ? null : (phase.shortCode ?? null),
        port: phase.target.port,
        target: { ...phase.target },
        you: phase.you,
        state: phase.state,
        internet: phase.internetCode ? { code: phase.internetCode, status: 'registered', message: null } : null,
      };
    case 'ended':
      return {
        ...IDLE_LOBBY_VIEW,
        status: 'ended',
        role: 'guest',
        port: phase.target.port,
        target: { ...phase.target },
        you: phase.you,
        state: phase.state,
        end: { ...phase.end },
      };
  }
}

/**
 * A hosted room's phase: its codes and addresses, whether LAN lists see it, its state, its internet presence and
 * the seat grace it was opened with.
 */
export function hostingPhase(
  room: {
    readonly code: string;
    readonly port: number;
    readonly codes: RoomCodes;
    readonly addresses: readonly LanAddress[];
  },
  now: {
    readonly discoverable: boolean;
    readonly state: LobbyState;
    readonly internet: InternetView | undefined;
    readonly seatGraceSec?: number;
  },
): LobbyPhase {
  return {
    kind: 'hosting',
    codes: room.codes,
    target: { host: decode(room.code).host, port: room.port },
    addresses: room.addresses,
    discoverable: now.discoverable,
    state: now.state,
    ...(now.internet ? { internet: now.internet } : {}),
    ...(now.seatGraceSec !== undefined ? { seatGraceSec: now.seatGraceSec } : {}),
  };
}
