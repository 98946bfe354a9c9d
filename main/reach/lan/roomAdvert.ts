import { LOBBY_PROTOCOL_VERSION } from '../../../shared/lobby/lobbyState';
import { networkInterfaces as osNetworkInterfaces } from 'node:os';
import type { LanDiscoveryOptions, NetworkInterfacesLike } from '../../net/discovery';
import type { LanDiscoveryHandle, Server } from '../../net/index';
import { lanAddresses, pickAdvertiseAddress, type LanAddress } from './lanAddresses';
import { roomCodesFor, type RoomCodes } from './roomCodes';

/** What a room's LAN advert says; the counts are read at each reply, so the advert follows the room. */
export interface RoomAdvertFacts {
  readonly roomName: string;
  /** The seats the advert offers (a dedicated host's own seat left out). */
  readonly capacity: number;
  readonly passwordProtected: boolean;
  readonly gameName: string;
  readonly appVersion?: string;
  /** The host player's name; absent for a dedicated host, whom nobody plays. */
  readonly hostName?: string;
  readonly playerCount: () => number;
  readonly inRound: () => boolean;
  /** The address the code carries; default this machine's best LAN address. */
  readonly advertiseAddress?: string;
  readonly networkInterfaces?: () => NetworkInterfacesLike;
}

/** A room as LAN players find it: its discovery (when on), its codes and the addresses it can be reached at. */
export interface RoomOnLan {
  readonly discovery: LanDiscoveryHandle | undefined;
  readonly codes: RoomCodes;
  readonly addresses: LanAddress[];
}

/**
 * Puts a room's Server on the LAN: answers discovery (unless `discovery` is false) with its name, seats and
 * players and what a guest's probe needs to refuse at once (a round on, a password, another lobby protocol),
 * and makes the codes for its address. Rejects when discovery cannot start; the caller closes the Server.
 */
export async function advertiseRoom(
  server: Server,
  discovery: false | Partial<Omit<LanDiscoveryOptions, 'name' | 'gamePort' | 'getPlayerCount'>>,
  facts: RoomAdvertFacts,
): Promise<RoomOnLan> {
  const handle =
    discovery === false
      ? undefined
      : await server.enableLanDiscovery(facts.roomName, {
          ...discovery,
          getPlayerCount: facts.playerCount,
          getExtraInfo: () => ({
            capacity: facts.capacity,
            passwordProtected: facts.passwordProtected,
            gameName: facts.gameName,
            inRound: facts.inRound(),
            lobbyProtocol: LOBBY_PROTOCOL_VERSION,
            ...(facts.appVersion !== undefined ? { appVersion: facts.appVersion } : {}),
            ...(facts.hostName !== undefined ? { hostName: facts.hostName } : {}),
          }),
        });
  const interfaces = (facts.networkInterfaces ?? osNetworkInterfaces)();
  const address = facts.advertiseAddress ?? pickAdvertiseAddress(interfaces);
  return {
    discovery: handle,
    codes: roomCodesFor(address, server.port, interfaces),
    addresses: lanAddresses(interfaces),
  };
}
