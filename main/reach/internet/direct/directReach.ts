import { IpcError, IpcErrorCode } from '../../../../shared/ipc/errors';
import { RENDEZVOUS_ERROR_TEXT, type DirectCode } from '../../../../shared/rendezvous';
import type { Logger } from '../../../base/logger';
import { DEFAULT_RECV_BUFFER, openUdpDatagramSocket, type DatagramSocket } from '../../../net/index';
import type { MapPort, MapPortRequest, PortMapFailure, PortMapping } from '../../portmap/portMapping';
import type { LocatedRoom, RoomTarget } from '../../roomReach';
import { connectDirectRoom, DirectJoinError, type DirectJoinOptions, type DirectPath } from './directJoin';
import { wrongCodesText } from '../internetRoom';
import { locatedInternetRoom, roomLeftError, unreachableRoomError } from '../internetJoin';

/** A direct room's door: its own UDP socket (never the LAN room port) and the router's mapping of it. */
export interface DirectDoor {
  readonly socket: DatagramSocket;
  readonly mapping: PortMapping;
}

/** Seconds a try to come back to a held seat may take: a new handshake with the router's port, then admission. */
const DIRECT_REJOIN_TRY_SEC = 5;

/**
 * Opens the direct room's socket on `bindAddress` and asks the router to map it (checked against `stunServer`
 * when one is configured). Without a usable mapping the socket is closed again and the failure says why (a mapper
 * that rejects, against its contract, counts as no router).
 */
export async function openDirectDoor(
  mapPort: MapPort,
  bindAddress: string,
  logger: Logger,
  stunServer?: MapPortRequest['stunServer'],
): Promise<
  { readonly ok: true; readonly door: DirectDoor } | { readonly ok: false; readonly failure: PortMapFailure }
> {
  const socket = await openUdpDatagramSocket({ port: 0, host: bindAddress, recvBufferSize: DEFAULT_RECV_BUFFER });
  const result = await mapPort({ internalPort: socket.port, ...(stunServer ? { stunServer } : {}) }).catch(
    (error: unknown) => {
      logger.warn('port mapping failed unexpectedly', error);
      return { ok: false as const, failure: { kind: 'no-router' as const } };
    },
  );
  if (!result.ok) {
    await socket.close();
    return result;
  }
  const { mapping } = result;
  logger.info(
    `router mapped ${mapping.externalAddress}:${mapping.externalPort} → local port ${socket.port} (${mapping.protocol})`,
  );
  return { ok: true, door: { socket, mapping } };
}

/** A direct join's failure as the player reads it (a DHT room's handshake fails the same ways). */
export function directJoinFailure(error: unknown): IpcError {
  if (!(error instanceof DirectJoinError)) {
    return unreachableRoomError(error);
  }
  switch (error.reason) {
    case 'mismatch':
      return new IpcError(IpcErrorCode.PERMISSION_DENIED, RENDEZVOUS_ERROR_TEXT['key-mismatch'], error.message);
    case 'busy':
      return new IpcError(IpcErrorCode.UNAVAILABLE, wrongCodesText(error.waitMs));
    case 'silent':
      return new IpcError(
        IpcErrorCode.UNAVAILABLE,
        'The host did not answer at the address in the code: the room may be closed, or its router’s port gone.',
      );
  }
}

/**
 * Finds a direct room by its code: the handshake with its router's port, then a sealed path for the Client.
 * Asked for a socket again (the guest coming back to its seat), it runs a fresh handshake from a fresh socket.
 */
export function locateDirectRoom(
  code: DirectCode,
  text: string,
  options: DirectJoinOptions & { readonly onTarget: (target: RoomTarget) => void },
): Promise<LocatedRoom> {
  const connect = () =>
    connectDirectRoom(code, options).catch((error: unknown) => {
      throw directJoinFailure(error);
    });
  return locateSealedRoom(text, connect, options.onTarget, DIRECT_REJOIN_TRY_SEC);
}

/**
 * A room reached by sealed paths that `connect` opens (a direct room's, a DHT room's): the first for the Client,
 * and a fresh one each time the Client asks again (coming back to its seat). `connect` rejects in the player's
 * words.
 */
export async function locateSealedRoom(
  text: string,
  connect: () => Promise<DirectPath>,
  onTarget: (target: RoomTarget) => void,
  rejoinTimeoutSec: number,
): Promise<LocatedRoom> {
  const { target: label, connectTo } = locatedInternetRoom(text);
  onTarget(label);
  let first: DirectPath | undefined = await connect();
  let closed = false;
  return {
    target: label,
    connectTo,
    openSocket: async () => {
      if (closed) throw roomLeftError();
      const path = first ?? (await connect());
      first = undefined;
      return path.socket;
    },
    rejoinTimeoutSec,
    internetCode: text.trim().toUpperCase(),
    close: async () => {
      closed = true;
      // A path never handed to a Client is closed here; the Client closes the ones it took.
      await first?.socket.close();
      first = undefined;
    },
  };
}
