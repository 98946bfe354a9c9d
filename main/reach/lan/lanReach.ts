import { networkInterfaces as osNetworkInterfaces } from 'node:os';
import { IpcError, IpcErrorCode } from '../../../shared/ipc/errors';
import type { HostAddresses } from '../../../shared/ipc/schemas/lobby';
import { parseJoinCode, RoomCodeError, type JoinCode } from '../../../shared/roomCode';
import type { NetworkOptions } from '../../base/networkOptions';
import type { Logger } from '../../base/logger';
import { probeServer, randomInstanceId, type NetworkInterfacesLike, type ProbeResult } from '../../net/discovery';
import { resolveRoomHost, type Ipv4Lookup } from '../../net/index';
import type { LocateContext, LocatedRoom, RoomReach } from '../roomReach';
import { candidatesFor, findRoom, soleCandidate, type FoundRoom, type RoomCandidate } from './findRoom';
import { chooseAdvertiseAddress, hostAddresses } from './hostAddresses';
import { guestShortCode } from './roomCodes';

/**
 * Seconds a code's connect may take when the machine answered with another of its rooms: a room that is there
 * answers a connect within milliseconds on a LAN, so a longer wait only delays "that room is gone".
 */
export const OTHER_ROOM_CONNECT_SECONDS = 0.6;

/** Said when the code's computer answers, but as another room: the code is stale. */
export const OTHER_ROOM_SENTENCE = 'That computer is hosting a different room now — ask the host for a new code.';

/** Options of {@link createLanReach}. */
export interface LanReachOptions {
  readonly network: NetworkOptions;
  readonly platform: string;
  readonly logger: Logger;
  /** Resolves host names for join-by-address; default the system resolver. */
  readonly lookup?: Ipv4Lookup;
  /** Asks an address's discovery port whether a room is there; default one unicast probe (~300 ms). */
  readonly probe?: (host: string, discoveryPort: number) => Promise<ProbeResult>;
}

/** The LAN reach: room codes and addresses, confirmed by a discovery probe; rooms advertise by LAN discovery. */
export interface LanReach extends RoomReach {
  /** The addresses a room can put in its code, and the one it would use (the remembered interface's). */
  addresses(rememberedInterface: string | null | undefined): HostAddresses;
}

/** A room code the player typed could not be decoded: the decoder's precise message, as a sentence. */
export function roomCodeFailure(error: RoomCodeError): IpcError {
  const trimmed = error.message.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return new IpcError(IpcErrorCode.INVALID_ARGUMENT, /[.!?]$/.test(capital) ? capital : `${capital}.`);
}

const nothingHeld = async (): Promise<void> => undefined;

/** A found room as the join takes it: a stale code's other room makes the connect short and its failure clear. */
function locatedOf(found: FoundRoom): LocatedRoom {
  return {
    target: found.target,
    ...(found.advert ? { advert: found.advert } : {}),
    ...(found.otherRoom
      ? {
          connectWithin: {
            seconds: OTHER_ROOM_CONNECT_SECONDS,
            failure: new IpcError(
              IpcErrorCode.NOT_FOUND,
              OTHER_ROOM_SENTENCE,
              `${found.target.host} answered as the room on port ${found.otherRoom.port} (“${found.otherRoom.name}”); ` +
                `nothing answered a connect on port ${found.target.port} within ${OTHER_ROOM_CONNECT_SECONDS} s`,
            ),
          },
        }
      : {}),
    close: nothingHeld,
  };
}

/** Creates the LAN reach over this machine's interfaces and discovery port. */
export function createLanReach(options: LanReachOptions): LanReach {
  const { network } = options;
  const readInterfaces = (): NetworkInterfacesLike => (network.networkInterfaces ?? osNetworkInterfaces)();
  const probe =
    options.probe ??
    ((host: string, port: number) => probeServer({ host, port, bindAddress: network.discoveryBindAddress }));

  /**
   * A code's room: its candidates worked out once and probed (or, unconfirmed, the one taken), the first shown
   * while the probe runs.
   */
  async function locateCode(
    request: { code: string; confirm?: boolean },
    context: LocateContext,
  ): Promise<LocatedRoom> {
    let code: JoinCode;
    try {
      code = parseJoinCode(request.code);
    } catch (error) {
      throw error instanceof RoomCodeError ? roomCodeFailure(error) : error;
    }
    const interfaces = readInterfaces();
    const candidates: RoomCandidate[] = candidatesFor(code, interfaces);
    if (request.confirm === false) {
      // "Try anyway": the code's one address, without asking it first.
      const only = soleCandidate(candidates);
      if (!only) {
        throw new IpcError(
          IpcErrorCode.UNAVAILABLE,
          'This short code fits more than one of your networks (or none), so it cannot be tried unconfirmed. ' +
            'Ask the host for the full code (“Code for gale.net games”).',
        );
      }
      return { target: { host: only.host, port: only.port }, close: nothingHeld };
    }
    const first = candidates[0];
    context.onProgress({
      target: first ? { host: first.host, port: first.port } : { host: '0.0.0.0', port: code.port },
    });
    return locatedOf(
      await findRoom(code, {
        interfaces,
        candidates,
        discoveryPort: network.discoveryPort,
        probe: (host) => probe(host, network.discoveryPort),
        platform: options.platform,
      }),
    );
  }

  /** An address's room: a host name is resolved when the join starts. */
  async function locateAddress(name: string, port: number, context: LocateContext): Promise<LocatedRoom> {
    context.onProgress({ target: { host: name, port } });
    try {
      return { target: { host: await resolveRoomHost(name, options.lookup), port }, close: nothingHeld };
    } catch (error) {
      if (!(error instanceof RoomCodeError)) throw error;
      throw new IpcError(
        IpcErrorCode.NOT_FOUND,
        `Could not find a computer called “${name}” on the network. Check the name, or type the host’s IP ` +
          'address (like 192.168.1.20).',
      );
    }
  }

  return {
    async locate(request, context) {
      const located =
        'host' in request
          ? await locateAddress(request.host, request.port, context)
          : await locateCode(request, context);
      // The short code this guest's network gives the room: what the host's screen shows.
      return { ...located, shortCode: guestShortCode(located.target.host, located.target.port, readInterfaces()) };
    },
    async open(request) {
      const advertiseAddress = chooseAdvertiseAddress(
        request.advertiseAddress,
        request.rememberedInterface,
        readInterfaces(),
        network.advertiseAddress,
      );
      return {
        discovery: {
          port: network.discoveryPort,
          bindAddress: network.discoveryBindAddress,
          instanceId: randomInstanceId(),
          announce: {
            intervalMs: network.announceIntervalMs,
            ...(network.broadcastTargets ? { targets: [...network.broadcastTargets] } : {}),
          },
          logger: options.logger,
        },
        ...(advertiseAddress !== undefined ? { advertiseAddress } : {}),
        close: nothingHeld,
      };
    },
    addresses: (rememberedInterface) => hostAddresses(readInterfaces(), network.advertiseAddress, rememberedInterface),
  };
}
