import { createHash, randomBytes as nodeRandomBytes, timingSafeEqual } from 'node:crypto';
import {
  RENDEZVOUS_LIMITS,
  ROOM_ID_CHARS,
  RendezvousErrorCode,
  RendezvousKind,
  clientMessageSchema,
  parseRendezvousMessage,
  type ClientMessage,
  type PeerOffer,
  type ServiceMessageBody,
  type TurnGrant,
} from '../../shared/rendezvous';
import { CROCKFORD_BASE32 } from '../../shared/roomCode/roomCodeFormat';
import { clipText } from '../../shared/text/normalizeText';
import type { Logger } from '../base/logger';
import type { Scheduler, TimerHandle } from '../base/scheduler';
import { createRateLimiter, type RateLimiter } from '../base/rateLimiter';
import { mintTurnCredentials } from '../net/ice';
import {
  DEFAULT_RENDEZVOUS_LIMITS,
  RENDEZVOUS_SWEEP_MS,
  type RendezvousServiceLimits,
} from './rendezvousServiceLimits';

/** One client connection as the service sees it (a WebSocket in production, a fake in unit tests). */
export interface RendezvousPeer {
  /** The source address, the key for rate limits. */
  readonly address: string;
  send(message: ServiceMessageBody): void;
  /** Ends the connection (WebSocket close codes: 1008 policy, 4000 replaced). */
  close(code: number, reason: string): void;
}

/** What the transport calls for an accepted connection. */
export interface RendezvousSession {
  /** One text message from the peer. */
  receive(text: string): void;
  /** The connection is gone (closed by either side). */
  closed(): void;
}

/** A TURN server the service mints credentials for (coturn's --use-auth-secret). */
export interface RendezvousTurnConfig {
  /** `turn:host:port` URLs handed to clients. */
  readonly urls: readonly string[];
  /** coturn's --static-auth-secret. */
  readonly secret: string;
}

/** Options for {@link createRendezvousService}. */
export interface RendezvousServiceOptions {
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  /** Wall clock in unix milliseconds, for TURN expiry and the `expiresAt` the host is told; default Date.now. */
  readonly wallClock?: () => number;
  /** Randomness for room ids, secrets and join ids; default node:crypto. */
  readonly randomBytes?: (size: number) => Uint8Array;
  /** Mint TURN credentials for every connection; absent: clients get `turn: null`. */
  readonly turn?: RendezvousTurnConfig;
  readonly limits?: Partial<RendezvousServiceLimits>;
}

/** What is held right now. */
export interface RendezvousServiceStats {
  readonly rooms: number;
  readonly joins: number;
  readonly connections: number;
}

/** The rendezvous: rooms by id, joins in flight, and the bounds around them. Transport-free. */
export interface RendezvousService {
  /** A new connection; null (and the peer is closed) when over a connection bound or the source's rate. */
  connect(peer: RendezvousPeer): RendezvousSession | null;
  stats(): RendezvousServiceStats;
  /** Stops the sweep timer and closes every connection. */
  close(): void;
}

interface Connection {
  readonly peer: RendezvousPeer;
  hosting: Room | null;
  readonly joins: Set<Join>;
  strikes: number;
  limitedInARow: number;
  open: boolean;
}

interface Room {
  readonly id: string;
  readonly secretHash: Buffer;
  readonly createdAt: number;
  host: Connection | null;
  hostLeftAt: number;
  readonly joins: Map<string, Join>;
}

interface Join {
  readonly id: string;
  readonly room: Room;
  readonly guest: Connection;
  readonly createdAt: number;
  answered: boolean;
  hostTrickled: number;
  guestTrickled: number;
}

const POLICY_VIOLATION = 1008;
const REPLACED = 4000;

function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** Creates the service; its sweep timer runs until {@link RendezvousService.close}. */
export function createRendezvousService(options: RendezvousServiceOptions): RendezvousService {
  const limits: RendezvousServiceLimits = { ...DEFAULT_RENDEZVOUS_LIMITS, ...options.limits };
  const { scheduler, logger } = options;
  const wallClock = options.wallClock ?? Date.now;
  const random = options.randomBytes ?? ((size: number) => new Uint8Array(nodeRandomBytes(size)));
  const now = () => scheduler.now();
  const messageLimiter: RateLimiter = createRateLimiter(limits.messageRate, { now, maxKeys: limits.maxConnections });
  const connectLimiter: RateLimiter = createRateLimiter(limits.connectRate, { now, maxKeys: limits.maxConnections });
  const rooms = new Map<string, Room>();
  // Ids of rooms that reached their hard cap: refused for re-registration until the cap would have passed again.
  const retired = new Map<string, number>();
  const connections = new Set<Connection>();
  const perAddress = new Map<string, number>();
  let joinCount = 0;

  const send = (conn: Connection, message: ServiceMessageBody): void => {
    if (conn.open) conn.peer.send(message);
  };
  const fail = (conn: Connection, code: RendezvousErrorCode, message: string, joinId?: string): void =>
    send(conn, { kind: RendezvousKind.ERROR, code, message, ...(joinId !== undefined ? { joinId } : {}) });

  function strike(conn: Connection, code: RendezvousErrorCode, message: string, joinId?: string): void {
    conn.strikes += 1;
    if (conn.strikes >= limits.maxStrikes) {
      fail(conn, code, `${message}; closing after ${conn.strikes} refused messages`, joinId);
      drop(conn);
      conn.peer.close(POLICY_VIOLATION, 'too many refused messages');
      return;
    }
    fail(conn, code, message, joinId);
  }

  function newRoomId(): string | undefined {
    for (let attempt = 0; attempt < 16; attempt++) {
      const bytes = random(ROOM_ID_CHARS);
      const id = Array.from(bytes, (b) => CROCKFORD_BASE32[b & 31]).join('');
      if (!rooms.has(id) && !retired.has(id)) return id;
    }
    return undefined;
  }

  function endJoin(join: Join, tellGuest?: { code: RendezvousErrorCode; message: string }): void {
    if (!join.room.joins.delete(join.id)) return;
    join.guest.joins.delete(join);
    joinCount -= 1;
    if (tellGuest) fail(join.guest, tellGuest.code, tellGuest.message, join.id);
  }

  function deleteRoom(room: Room, guestsHear: { code: RendezvousErrorCode; message: string }): void {
    for (const join of [...room.joins.values()]) endJoin(join, guestsHear);
    if (room.host) room.host.hosting = null;
    rooms.delete(room.id);
  }

  function hostLeft(room: Room): void {
    room.host = null;
    room.hostLeftAt = now();
    for (const join of [...room.joins.values()]) {
      endJoin(join, { code: RendezvousErrorCode.HOST_AWAY, message: 'the host lost its connection to the rendezvous' });
    }
  }

  function drop(conn: Connection): void {
    if (!conn.open) return;
    conn.open = false;
    connections.delete(conn);
    const left = (perAddress.get(conn.peer.address) ?? 1) - 1;
    if (left <= 0) perAddress.delete(conn.peer.address);
    else perAddress.set(conn.peer.address, left);
    for (const join of [...conn.joins]) endJoin(join);
    if (conn.hosting) {
      const room = conn.hosting;
      conn.hosting = null;
      hostLeft(room);
    }
  }

  function register(conn: Connection, message: Extract<ClientMessage, { kind: 'register' }>): void {
    if (conn.hosting) return strike(conn, RendezvousErrorCode.NOT_ALLOWED, 'this connection already hosts a room');
    if (conn.joins.size > 0) return strike(conn, RendezvousErrorCode.NOT_ALLOWED, 'this connection is joining a room');
    let room: Room | undefined;
    if (message.room) {
      const { roomId, roomSecret } = message.room;
      if (retired.has(roomId)) return fail(conn, RendezvousErrorCode.ROOM_UNKNOWN, 'the room expired');
      room = rooms.get(roomId);
      const hash = hashSecret(roomSecret);
      if (room && !timingSafeEqual(room.secretHash, hash)) {
        return strike(conn, RendezvousErrorCode.ROOM_TAKEN, 'the room id is held with another secret');
      }
      if (room?.host) {
        // The old connection has not noticed it is dead yet (or the host opened a second one): the newest wins.
        const old = room.host;
        old.hosting = null;
        room.host = null;
        fail(old, RendezvousErrorCode.ROOM_TAKEN, 'the room was registered again from another connection');
        old.peer.close(REPLACED, 'replaced');
        drop(old);
      }
      if (!room) {
        // A restarted service, or a host back after its grace: the same id under the same secret.
        if (rooms.size >= limits.maxRooms)
          return fail(conn, RendezvousErrorCode.SERVICE_FULL, 'no room for more rooms');
        room = { id: roomId, secretHash: hash, createdAt: now(), host: null, hostLeftAt: 0, joins: new Map() };
        rooms.set(roomId, room);
      }
      room.host = conn;
      conn.hosting = room;
      return sendRegistered(conn, room, roomSecret);
    }
    if (rooms.size >= limits.maxRooms) return fail(conn, RendezvousErrorCode.SERVICE_FULL, 'no room for more rooms');
    const id = newRoomId();
    if (id === undefined) return fail(conn, RendezvousErrorCode.SERVICE_FULL, 'no free room id');
    const secret = base64url(random(24));
    room = { id, secretHash: hashSecret(secret), createdAt: now(), host: conn, hostLeftAt: 0, joins: new Map() };
    rooms.set(id, room);
    conn.hosting = room;
    logger.info(`room ${id} registered from ${conn.peer.address}`);
    sendRegistered(conn, room, secret);
  }

  function sendRegistered(conn: Connection, room: Room, roomSecret: string): void {
    const expiresAt = Math.round(wallClock() + (room.createdAt + limits.roomMaxAgeMs - now()));
    send(conn, { kind: RendezvousKind.REGISTERED, roomId: room.id, roomSecret, expiresAt });
  }

  function join(conn: Connection, roomId: string, offer: PeerOffer): void {
    if (conn.hosting) return strike(conn, RendezvousErrorCode.NOT_ALLOWED, 'a host connection cannot join');
    if (conn.joins.size >= limits.maxJoinsPerConnection) {
      return strike(conn, RendezvousErrorCode.RATE_LIMITED, 'too many joins open on this connection');
    }
    const room = rooms.get(roomId);
    if (!room) return fail(conn, RendezvousErrorCode.ROOM_UNKNOWN, `no room ${roomId}: it expired or never existed`);
    if (!room.host) return fail(conn, RendezvousErrorCode.HOST_AWAY, 'the host is not connected right now');
    if (room.joins.size >= limits.maxPendingJoinsPerRoom) {
      return fail(conn, RendezvousErrorCode.ROOM_FULL, 'too many players are joining this room right now');
    }
    const id = base64url(random(12));
    const entry: Join = { id, room, guest: conn, createdAt: now(), answered: false, hostTrickled: 0, guestTrickled: 0 };
    room.joins.set(id, entry);
    conn.joins.add(entry);
    joinCount += 1;
    send(room.host, { kind: RendezvousKind.JOIN_REQUEST, joinId: id, offer });
    send(conn, { kind: RendezvousKind.JOIN_PENDING, joinId: id });
  }

  /** The join `joinId` if this connection is its host or its guest. */
  function ownJoin(conn: Connection, joinId: string): { join: Join; fromHost: boolean } | undefined {
    const asHost = conn.hosting?.joins.get(joinId);
    if (asHost) return { join: asHost, fromHost: true };
    for (const j of conn.joins) if (j.id === joinId) return { join: j, fromHost: false };
    return undefined;
  }

  function handle(conn: Connection, message: ClientMessage): void {
    switch (message.kind) {
      case 'ping':
        return send(conn, { kind: RendezvousKind.PONG });
      case 'register':
        return register(conn, message);
      case 'unregister': {
        const room = conn.hosting;
        if (!room) return strike(conn, RendezvousErrorCode.NOT_ALLOWED, 'this connection hosts no room');
        logger.info(`room ${room.id} closed by its host`);
        return deleteRoom(room, { code: RendezvousErrorCode.ROOM_UNKNOWN, message: 'the host closed the room' });
      }
      case 'join':
        return join(conn, message.roomId, message.offer);
      default:
        break;
    }
    const own = ownJoin(conn, message.joinId);
    if (!own) return strike(conn, RendezvousErrorCode.NOT_ALLOWED, 'no such join on this connection', message.joinId);
    const { join: entry, fromHost } = own;
    const host = entry.room.host;
    switch (message.kind) {
      case 'answer':
        if (!fromHost || entry.answered) {
          return strike(conn, RendezvousErrorCode.NOT_ALLOWED, 'only the host answers, once', entry.id);
        }
        entry.answered = true;
        return send(entry.guest, { kind: RendezvousKind.ANSWER, joinId: entry.id, answer: message.answer });
      case 'reject':
        if (!fromHost) return strike(conn, RendezvousErrorCode.NOT_ALLOWED, 'only the host rejects', entry.id);
        return endJoin(entry, {
          code: RendezvousErrorCode.REJECTED,
          message: clipText(message.reason, RENDEZVOUS_LIMITS.MAX_REASON_CHARS) || 'the host turned the join down',
        });
      case 'candidate':
      case 'end-of-candidates': {
        if (message.kind === 'candidate') {
          const sent = fromHost ? ++entry.hostTrickled : ++entry.guestTrickled;
          if (sent > RENDEZVOUS_LIMITS.MAX_TRICKLED_CANDIDATES) {
            return strike(conn, RendezvousErrorCode.TOO_LARGE, 'too many trickled candidates', entry.id);
          }
        }
        const to = fromHost ? entry.guest : host;
        if (!to) return;
        return send(
          to,
          message.kind === 'candidate'
            ? { kind: RendezvousKind.CANDIDATE, joinId: entry.id, candidate: message.candidate }
            : { kind: RendezvousKind.END_OF_CANDIDATES, joinId: entry.id },
        );
      }
    }
  }

  function receive(conn: Connection, text: string): void {
    if (!conn.open) return;
    if (!messageLimiter.allow(conn.peer.address)) {
      conn.limitedInARow += 1;
      // One error per burst of refused messages, so a flood does not get a flood back.
      if (conn.limitedInARow === 1) strike(conn, RendezvousErrorCode.RATE_LIMITED, 'too many messages; slow down');
      else if (conn.limitedInARow % 16 === 0) strike(conn, RendezvousErrorCode.RATE_LIMITED, 'still too many messages');
      return;
    }
    conn.limitedInARow = 0;
    const parsed = parseRendezvousMessage(text, clientMessageSchema);
    if (!parsed.ok) return strike(conn, parsed.code, parsed.message);
    handle(conn, parsed.message);
  }

  function turnGrant(): TurnGrant | null {
    if (!options.turn) return null;
    const id = base64url(random(9));
    const minted = mintTurnCredentials(options.turn.secret, id, limits.turnTtlSeconds, wallClock() / 1000);
    return { urls: [...options.turn.urls], ...minted };
  }

  function sweep(): void {
    const t = now();
    for (const room of [...rooms.values()]) {
      if (t - room.createdAt >= limits.roomMaxAgeMs) {
        logger.info(`room ${room.id} reached its hard cap`);
        if (room.host) fail(room.host, RendezvousErrorCode.ROOM_UNKNOWN, 'the room expired');
        deleteRoom(room, { code: RendezvousErrorCode.ROOM_UNKNOWN, message: 'the room expired' });
        if (retired.size >= limits.maxRooms) retired.delete(retired.keys().next().value as string);
        retired.set(room.id, room.createdAt + 2 * limits.roomMaxAgeMs);
      } else if (!room.host && t - room.hostLeftAt >= limits.hostGraceMs) {
        rooms.delete(room.id);
      } else {
        for (const entry of [...room.joins.values()]) {
          if (t - entry.createdAt < limits.joinTtlMs) continue;
          endJoin(
            entry,
            entry.answered
              ? undefined
              : { code: RendezvousErrorCode.TIMEOUT, message: 'the host did not answer in time' },
          );
        }
      }
    }
    for (const [id, until] of retired) if (t >= until) retired.delete(id);
  }

  const sweepTimer: TimerHandle = scheduler.setRepeating(sweep, RENDEZVOUS_SWEEP_MS);

  return {
    connect(peer) {
      const count = perAddress.get(peer.address) ?? 0;
      const refuse = (why: string) => {
        peer.send({ kind: RendezvousKind.ERROR, code: RendezvousErrorCode.RATE_LIMITED, message: why });
        peer.close(POLICY_VIOLATION, why);
        return null;
      };
      if (connections.size >= limits.maxConnections) return refuse('the rendezvous has too many connections');
      if (count >= limits.maxConnectionsPerAddress) return refuse('too many connections from this address');
      if (!connectLimiter.allow(peer.address)) return refuse('connecting too often from this address');
      const conn: Connection = { peer, hosting: null, joins: new Set(), strikes: 0, limitedInARow: 0, open: true };
      connections.add(conn);
      perAddress.set(peer.address, count + 1);
      send(conn, { kind: RendezvousKind.WELCOME, turn: turnGrant() });
      return { receive: (text) => receive(conn, text), closed: () => drop(conn) };
    },
    stats: () => ({ rooms: rooms.size, joins: joinCount, connections: connections.size }),
    close() {
      scheduler.clearTimer(sweepTimer);
      for (const conn of [...connections]) {
        drop(conn);
        conn.peer.close(1001, 'rendezvous shutting down');
      }
    },
  };
}
