import { randomBytes } from 'node:crypto';
import { createIceSession, type IceSession, type SocketMux } from '../../net/ice';
import { createKeyPair, secureSocket } from '../../net/secure';
import { startRendezvousHost, type JoinRequest, type RendezvousHostStatus } from './rendezvousHost';
import { internetCodeFor } from './hostKeyCheck';
import type { InternetSettings } from '../../../shared/ipc/schemas/internetSettings';
import { PlayerPath } from '../../../shared/lobby/lobbyState';
import type { DatagramSource } from '../../net/index';
import { Listeners } from '../../base/listeners';
import type { Logger } from '../../base/logger';
import type { Scheduler } from '../../base/scheduler';
import { iceServersFor } from './iceServers';

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
}

/** A room's presence on the rendezvous, and the paths of the guests who came through it. */
export interface InternetRoom {
  /** The NET-… code to share. */
  readonly code: string;
  readonly status: RendezvousHostStatus;
  onStatus(listener: (status: RendezvousHostStatus) => void): () => void;
  /** direct or relayed for a guest that came over the internet, lan for every other. */
  pathOf(source: DatagramSource): PlayerPath;
  /** Drops a guest's path once the Server let it go. */
  release(source: DatagramSource): Promise<void>;
  close(): Promise<void>;
}

const key = (source: DatagramSource): string => `${source.address}:${source.port}`;

/**
 * Registers the room with the rendezvous and answers each join: an ICE session per guest (we control), our
 * room key for the end-to-end encryption (its digest is in the code, so the rendezvous cannot swap it), and once
 * a pair works the secured path joins the room's Server through the mux. No game traffic touches the rendezvous.
 * Rejects with a RendezvousError when the rendezvous cannot register the room.
 */
export async function openInternetRoom(options: InternetRoomOptions): Promise<InternetRoom> {
  const { settings, mux, logger } = options;
  if (settings.rendezvousUrl === null) throw new Error('internet rooms need a rendezvous server (Settings)');
  const keys = createKeyPair();
  const rendezvous = await startRendezvousHost({
    url: settings.rendezvousUrl,
    scheduler: options.scheduler,
    logger,
  });
  const paths = new Map<string, { path: PlayerPath; session: IceSession }>();
  const pending = new Set<IceSession>();
  const statusListeners = new Listeners<[RendezvousHostStatus]>((error) => logger.warn('status listener', error));
  let closed = false;

  const answerJoin = async (request: JoinRequest): Promise<void> => {
    if (pending.size >= (options.maxPending ?? 4)) {
      rendezvous.reject(request.joinId, 'The host is busy letting others in; try again in a moment.');
      return;
    }
    const session = createIceSession({
      controlling: true,
      ...iceServersFor(settings, rendezvous.turn),
      ...(options.hostAddresses ? { hostAddresses: options.hostAddresses } : {}),
      connectTimeoutSeconds: options.connectTimeoutSeconds ?? 10,
    });
    pending.add(session);
    try {
      const ours = await session.gather();
      rendezvous.answer(request.joinId, {
        ice: { ...ours, candidates: [...ours.candidates] },
        publicKey: keys.publicKey,
        nonce: randomBytes(16).toString('base64url'),
      });
      const path = await session.connect(request.offer.ice);
      if (closed) throw new Error('room closed');
      const secured = secureSocket(session.socket, {
        ownPrivate: keys.privateKey,
        peerPublic: request.offer.publicKey,
        role: 'host',
        transcript: {
          roomId: rendezvous.roomId,
          hostPublicKey: keys.publicKey,
          guestPublicKey: request.offer.publicKey,
          hostUfrag: ours.usernameFragment,
          guestUfrag: request.offer.ice.usernameFragment,
        },
      });
      const source = mux.add(secured);
      paths.set(key(source), { path: path.kind === 'relayed' ? PlayerPath.RELAYED : PlayerPath.DIRECT, session });
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

  rendezvous.onJoinRequest((request) => void answerJoin(request));
  rendezvous.onStatus((status) => statusListeners.emit(status));

  return {
    code: internetCodeFor(rendezvous.roomId, keys.publicKey),
    get status() {
      return rendezvous.status;
    },
    onStatus: (listener) => statusListeners.add(listener),
    pathOf: (source) => paths.get(key(source))?.path ?? PlayerPath.LAN,
    async release(source) {
      const entry = paths.get(key(source));
      if (!entry) return;
      paths.delete(key(source));
      await mux.remove(source);
      await entry.session.close();
    },
    async close() {
      closed = true;
      rendezvous.close();
      const sessions = [...pending, ...[...paths.values()].map((entry) => entry.session)];
      paths.clear();
      await Promise.all(sessions.map((session) => session.close()));
      statusListeners.clear();
    },
  };
}
