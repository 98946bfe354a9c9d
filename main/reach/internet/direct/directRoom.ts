import { randomBytes } from 'node:crypto';
import { createAttemptBudget } from '../../../base/attemptBudget';
import type { Logger } from '../../../base/logger';
import type { Scheduler, TimerHandle } from '../../../base/scheduler';
import { PointToPointSocket, type SocketMux } from '../../../net/ice';
import type { DatagramSocket, DatagramSource } from '../../../net/index';
import {
  answerGuestAgreement,
  KeyAgreementError,
  sealSignal,
  secureSocket,
  type AgreementContext,
  type HostAgreement,
} from '../../../net/secure';
import { encodeDirectCode, newCodeSecret } from '../../../../shared/rendezvous';
import { PlayerPath } from '../../../../shared/lobby/lobbyState';
import {
  busyDatagram,
  DIRECT_KEY_LABELS,
  directDatagram,
  DirectKind,
  parseDirectDatagram,
  welcomeDatagram,
  WELCOME_TEXT,
} from './directWire';
import { directJoinAgreement } from '../internetJoinAgreement';
import { CODE_GUESS_BUDGET } from '../internetRoom';

/** What a code says and what the join's agreement binds to, for the room's fresh secret. */
export type DoorInvite = (secret: string) => { readonly code: string; readonly context: AgreementContext };

/** Options of {@link openSealedDoor}: a socket where strangers prove the code's secret before the room keeps a path. */
export interface SealedDoorOptions {
  /** Where the joins arrive: the router-mapped UDP port, or the DHT's streams seen as one socket (dhtDoor.ts). */
  readonly socket: DatagramSocket;
  /** The code and the agreement's binding for the secret drawn here. */
  readonly invite: DoorInvite;
  /** How the view names a guest who came in by this door. */
  readonly path: PlayerPath;
  /** Hears a source prove the code (its path kept) and its path let go (the door may free what it holds for it). */
  readonly onPath?: {
    readonly joined: (source: DatagramSource) => void;
    readonly left: (source: DatagramSource) => void;
  };
  /** The room's Server socket: each guest's secured path is added to it. */
  readonly mux: SocketMux;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  /** The room-wide budget of answers that may be guesses; default CODE_GUESS_BUDGET. */
  readonly joinBudget?: { readonly burst: number; readonly refillMs: number };
  /** Agreements waiting for their confirmation at once (oldest dropped first); default 64. */
  readonly maxPending?: number;
  /** Secured paths at once; a confirmed join past it is not welcomed. Default 32. */
  readonly maxPaths?: number;
  /** Milliseconds a welcomed path may stay silent before it is let go; default 5000. */
  readonly silentPathMs?: number;
  /** Randomness for the secret and the agreements; default node:crypto. */
  readonly randomBytes?: (size: number) => Uint8Array;
}

/** Options of {@link openDirectRoom}. */
export interface DirectRoomOptions extends Omit<SealedDoorOptions, 'invite' | 'path' | 'onPath'> {
  /** The room's direct UDP socket: its own port, the one the router maps (never the LAN room port). */
  readonly socket: DatagramSocket;
  /** Where the internet reaches that socket: the router's public address and the port it assigned. */
  readonly publicAddress: string;
  readonly publicPort: number;
}

/** A direct room: its code, and the paths of the guests who came in by it. */
export interface DirectRoom {
  /** The NET-… code to share. */
  readonly code: string;
  /** The door's path (`router`, `dht`) for a guest that came in by it, undefined for every other. */
  pathOf(source: DatagramSource): PlayerPath | undefined;
  /** A direct guest's own address (the room's limits key on it), undefined for every other. */
  sourceOf(source: DatagramSource): string | undefined;
  /** Drops a guest's path once the Server let it go. */
  release(source: DatagramSource): Promise<void>;
  /** What the room holds for strangers and guests: agreements waiting, secured paths (for tests and logs). */
  readonly held: { readonly pending: number; readonly paths: number };
  close(): Promise<void>;
}

/** How long a guest has, after the answer, to confirm. */
const CONFIRM_WINDOW_MS = 10_000;

interface Pending {
  readonly offer: Buffer;
  readonly answer: Buffer;
  readonly agreement: HostAgreement;
  readonly timer: TimerHandle;
}

interface DirectPath {
  /** Where the guest's datagrams come from on the door's socket. */
  readonly source: DatagramSource;
  readonly tag: Buffer;
  readonly welcome: Buffer;
  mux: DatagramSource;
  receive: ((datagram: Uint8Array) => void) | undefined;
  silence: TimerHandle | undefined;
}

const keyOf = (source: DatagramSource): string => `${source.address}:${source.port}`;

/** A direct room on the router's mapped port: a NET-D… code naming the public address, the path `router`. */
export function openDirectRoom(options: DirectRoomOptions): DirectRoom {
  const { publicAddress: address, publicPort: port, ...rest } = options;
  return openSealedDoor({
    ...rest,
    path: PlayerPath.ROUTER,
    invite: (secret) => ({
      code: encodeDirectCode(address, port, secret),
      context: directJoinAgreement({ address, port, secret }),
    }),
  });
}

/**
 * Serves a room on a door of its own (a mapped UDP port, the DHT's streams): a stranger's offer is answered (one token of the room-wide
 * guess budget, or "busy" with the wait) and only its agreement is kept, bounded in number and time; a
 * confirmation that checks (proving the room secret) gets a path sealed with the agreed keys (secureSocket) that
 * joins the room's Server through the mux, as every internet guest does. Anything else — garbage, replays, a
 * truncated handshake, a wrong tag — is dropped, and leaves nothing behind.
 */
export function openSealedDoor(options: SealedDoorOptions): DirectRoom {
  const { socket, mux, scheduler, logger } = options;
  const random = options.randomBytes ?? ((size: number) => new Uint8Array(randomBytes(size)));
  const { burst, refillMs } = options.joinBudget ?? CODE_GUESS_BUDGET;
  const budget = createAttemptBudget(() => scheduler.now(), burst, refillMs);
  const maxPending = options.maxPending ?? 64;
  const maxPaths = options.maxPaths ?? 32;
  const silentPathMs = options.silentPathMs ?? 5000;
  const secret = newCodeSecret(random);
  const { code, context } = options.invite(secret);
  const pending = new Map<string, Pending>();
  const paths = new Map<string, DirectPath>();
  /** The mux's label of each path → the guest's real source. */
  const byLabel = new Map<string, DatagramSource>();
  let closed = false;

  const send = (datagram: Uint8Array, to: DatagramSource) => socket.send(datagram, to.port, to.address);

  const dropPending = (key: string) => {
    const entry = pending.get(key);
    if (!entry) return;
    scheduler.clearTimer(entry.timer);
    pending.delete(key);
  };

  const answer = (offer: Uint8Array, from: DatagramSource, key: string) => {
    const waiting = pending.get(key);
    // The same offer again (our answer was lost): the same answer, at no cost to the budget.
    if (waiting?.offer.equals(offer)) {
      send(waiting.answer, from);
      return;
    }
    if (paths.has(key)) return; // a welcomed source asks nothing more of the handshake
    // Each answer lets the asker test one guess at the secret: answers are budgeted for the whole room.
    const wait = budget.take();
    if (wait > 0) {
      send(busyDatagram(wait), from);
      return;
    }
    let agreement: HostAgreement;
    try {
      agreement = answerGuestAgreement(context, offer, random);
    } catch (error) {
      if (error instanceof KeyAgreementError) return;
      throw error;
    }
    dropPending(key);
    const answered = directDatagram(DirectKind.ANSWER, agreement.answer);
    const timer = scheduler.setTimer(() => pending.delete(key), CONFIRM_WINDOW_MS);
    pending.set(key, { offer: Buffer.from(offer), answer: answered, agreement, timer });
    if (pending.size > maxPending) dropPending(pending.keys().next().value as string);
    send(answered, from);
  };

  const confirm = (tag: Uint8Array, from: DatagramSource, key: string) => {
    const path = paths.get(key);
    // The same confirmation again (our welcome was lost): welcomed again.
    if (path) {
      if (path.tag.equals(tag)) send(path.welcome, from);
      return;
    }
    const entry = pending.get(key);
    if (!entry) return;
    dropPending(key);
    const keys = entry.agreement.confirm(tag);
    if (!keys) {
      // A wrong secret or a guess: its budget token stays spent.
      logger.warn(`a ${options.path} join failed the key confirmation (wrong code, or a guess)`);
      return;
    }
    budget.succeeded();
    if (paths.size >= maxPaths) {
      logger.warn(`a ${options.path} join proved the code, but ${maxPaths} of its paths are open already`);
      return;
    }
    const guest = { address: from.address, port: from.port };
    const entryPath: DirectPath = {
      source: guest,
      tag: Buffer.from(tag),
      welcome: welcomeDatagram(sealSignal(keys.signalHostToGuest, WELCOME_TEXT, random)),
      mux: { address: '', port: 0 },
      receive: undefined,
      silence: undefined,
    };
    const link = new PointToPointSocket({
      send: (datagram) => {
        send(directDatagram(DirectKind.DATA, datagram), guest);
        return Promise.resolve();
      },
      subscribe: (receive) => {
        entryPath.receive = receive;
        return () => (entryPath.receive = undefined);
      },
      local: () => ({ address: socket.address, port: socket.port }),
      remote: () => guest,
      close: () => {
        forget(key);
        return Promise.resolve();
      },
    });
    const secured = secureSocket(link, {
      sessionKeys: keys.datagramKeys(DIRECT_KEY_LABELS.host, DIRECT_KEY_LABELS.guest),
      role: 'host',
    });
    paths.set(key, entryPath);
    options.onPath?.joined(from);
    // Guests from one address share a synthetic address (the room's password backoff keys on it).
    const label = mux.add(secured, guest.address);
    entryPath.mux = label;
    byLabel.set(keyOf(label), guest);
    // A path that proves the code and then says nothing sealed is let go: it holds a slot of the room's.
    entryPath.silence = scheduler.setTimer(() => {
      if (secured.counters.opened === 0 && paths.get(key) === entryPath) {
        logger.warn(`${options.path} path ${key} said nothing within ${silentPathMs} ms: let go`);
        void mux.remove(label);
      }
    }, silentPathMs);
    logger.info(`${options.path} guest ${key} proved the code: joined as ${keyOf(label)}`);
    send(entryPath.welcome, from);
  };

  function forget(key: string): void {
    const path = paths.get(key);
    if (!path) return;
    paths.delete(key);
    byLabel.delete(keyOf(path.mux));
    if (path.silence !== undefined) scheduler.clearTimer(path.silence);
    options.onPath?.left(path.source);
  }

  socket.listen({
    message: (datagram, from) => {
      if (closed) return;
      const read = parseDirectDatagram(datagram);
      if (!read) return;
      const key = keyOf(from);
      switch (read.kind) {
        case DirectKind.DATA: {
          const path = paths.get(key);
          path?.receive?.(read.body);
          return;
        }
        case DirectKind.OFFER:
          answer(read.offer, from, key);
          return;
        case DirectKind.CONFIRM:
          confirm(read.tag, from, key);
          return;
        default:
          // What only the host sends: dropped.
          return;
      }
    },
    sendError: () => undefined,
    error: (error) => logger.warn('direct port error', error),
  });

  return {
    code,
    pathOf: (source) => (byLabel.has(keyOf(source)) ? options.path : undefined),
    sourceOf: (source) => byLabel.get(keyOf(source))?.address,
    async release(source) {
      if (byLabel.has(keyOf(source))) await mux.remove(source);
    },
    get held() {
      return { pending: pending.size, paths: paths.size };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const key of [...pending.keys()]) dropPending(key);
      const labels = [...paths.values()].map((path) => path.mux);
      await Promise.all(labels.map((label) => mux.remove(label)));
      await socket.close();
    },
  };
}
