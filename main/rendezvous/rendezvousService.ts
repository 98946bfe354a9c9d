import { randomBytes as nodeRandomBytes } from 'node:crypto';
import {
  RENDEZVOUS_LIMITS,
  RendezvousErrorCode,
  RendezvousKind,
  clientMessageSchema,
  parseRendezvousMessage,
  type ClientMessage,
} from '../../shared/rendezvous';
import { clipText } from '../../shared/text/normalizeText';
import type { Logger } from '../base/logger';
import type { Scheduler, TimerHandle } from '../base/scheduler';
import { systemWallClock, type WallClock } from '../base/wallClock';
import { createRateLimiter, type RateLimiter } from '../base/rateLimiter';
import { mintTurnCredentials } from '../net/ice';
import { addressKeysOf } from './addressKeys';
import { createProbeGuard } from './probeGuard';
import { createJoinTable } from './rendezvousJoins';
import { createRoomRegistry } from './rendezvousRooms';
import {
  DEFAULT_RENDEZVOUS_LIMITS,
  RENDEZVOUS_SWEEP_MS,
  type RendezvousServiceLimits,
} from './rendezvousServiceLimits';
import type { Connection, RendezvousPeer, Refusal, ServiceContext } from './rendezvousState';
import { createRoomSecrets } from './roomSecrets';

export type { RendezvousPeer } from './rendezvousState';

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
  /** For TURN expiry and the `expiresAt` the host is told; default the system's. */
  readonly wallClock?: WallClock;
  /** Randomness for room ids and join ids; default node:crypto. */
  readonly randomBytes?: (size: number) => Uint8Array;
  /**
   * The key room secrets are derived from (≥ 32 bytes; serviceKey.ts loads or creates one): keep it across
   * restarts so owners can re-register their rooms. Default: a random key for this process only.
   */
  readonly serviceKey?: Uint8Array;
  /** Mint TURN credentials for a host's session with each guest it accepted; absent: it gets `turn: null`. */
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

const POLICY_VIOLATION = 1008;
const IDLE = 4001;
/**
 * Messages a host sends about its room's joins: not counted against its rate while they name a join still open
 * (each forwarded join bounds them: one answer, one accept, MAX_SIGNALS signals); any other counts.
 */
const HOST_REPLIES = new Set<string>(['answer', 'reject', 'accept', 'signal']);

/** Creates the service; its sweep timer runs until {@link RendezvousService.close}. */
export function createRendezvousService(options: RendezvousServiceOptions): RendezvousService {
  const limits: RendezvousServiceLimits = { ...DEFAULT_RENDEZVOUS_LIMITS, ...options.limits };
  const { scheduler, logger } = options;
  const wallClock = options.wallClock ?? systemWallClock;
  const random = options.randomBytes ?? ((size: number) => new Uint8Array(nodeRandomBytes(size)));
  const now = () => scheduler.now();
  const messageLimiter: RateLimiter = createRateLimiter(limits.messageRate, { now, maxKeys: limits.maxConnections });
  const connectLimiter: RateLimiter = createRateLimiter(limits.connectRate, { now, maxKeys: limits.maxConnections });
  const probes = createProbeGuard({
    budget: limits.probeBudget,
    stepMs: limits.probeStepMs,
    maxDelayMs: limits.probeMaxDelayMs,
    maxQueueMs: limits.probeMaxQueueMs,
    now,
    maxKeys: limits.maxConnections,
  });
  const grantLimiter = createRateLimiter(limits.turnGrantsPerAddress, { now, maxKeys: limits.maxConnections });
  const grantPrefixLimiter = createRateLimiter(limits.turnGrantsPerPrefix, { now, maxKeys: limits.maxConnections });
  const hostGrantLimiter = createRateLimiter(limits.turnGrantsPerHostAddress, { now, maxKeys: limits.maxConnections });
  const connections = new Set<Connection>();
  const perAddress = new Map<string, number>();

  const ctx: ServiceContext = {
    limits,
    logger,
    now,
    send: (conn, message) => {
      if (conn.open) conn.peer.send(message);
    },
    fail: (conn, refusal, joinId) =>
      ctx.send(conn, { kind: RendezvousKind.ERROR, ...refusal, ...(joinId !== undefined ? { joinId } : {}) }),
    strike(conn, refusal, joinId) {
      conn.strikes += 1;
      if (conn.strikes >= limits.maxStrikes) {
        ctx.fail(
          conn,
          { ...refusal, message: `${refusal.message}; closing after ${conn.strikes} refused messages` },
          joinId,
        );
        ctx.dropAndClose(conn, POLICY_VIOLATION, 'too many refused messages');
        return;
      }
      ctx.fail(conn, refusal, joinId);
    },
    dropAndClose(conn, code, reason) {
      drop(conn);
      conn.peer.close(code, reason);
    },
    turnGrant(join, side) {
      if (!options.turn || !join.room.host) return null;
      // A guest's counted against its address and prefix, a host's against its address: one party registering
      // rooms and joining them itself gets no more relay time than a party's worth, a busy room's host many guests'.
      const sides = [join.room.host.keys, join.guest.keys];
      const guest = join.guest.keys;
      const allowed =
        side === 'guest'
          ? grantLimiter.allow(guest.address) && grantPrefixLimiter.allow(guest.prefix)
          : hostGrantLimiter.allow(join.room.host.keys.address);
      if (!allowed) {
        logger.warn(`room ${join.room.id}: no TURN grant, over the cap for ${sides.map((k) => k.address).join(' / ')}`);
        return null;
      }
      const id = Buffer.from(random(9)).toString('base64url');
      const minted = mintTurnCredentials(options.turn.secret, id, limits.turnTtlSeconds, wallClock() / 1000);
      return { urls: [...options.turn.urls], ...minted };
    },
  };
  const secrets = createRoomSecrets(options.serviceKey ?? random(32), random);
  const joins = createJoinTable(ctx, () => Buffer.from(random(12)).toString('base64url'));
  const rooms = createRoomRegistry(ctx, secrets, joins, wallClock);
  const notAllowed = (message: string): Refusal => ({ code: RendezvousErrorCode.NOT_ALLOWED, message });

  function drop(conn: Connection): void {
    if (!conn.open) return;
    conn.open = false;
    connections.delete(conn);
    const left = (perAddress.get(conn.keys.address) ?? 1) - 1;
    if (left <= 0) perAddress.delete(conn.keys.address);
    else perAddress.set(conn.keys.address, left);
    for (const join of [...conn.joins]) joins.end(join);
    if (conn.hosting) {
      const room = conn.hosting;
      conn.hosting = null;
      rooms.hostLeft(room);
    }
  }

  function join(conn: Connection, message: Extract<ClientMessage, { kind: 'join' }>): void {
    if (conn.hosting) return ctx.strike(conn, notAllowed('a host connection cannot join'));
    if (conn.joins.size >= limits.maxJoinsPerConnection) {
      return ctx.strike(conn, {
        code: RendezvousErrorCode.RATE_LIMITED,
        message: 'too many joins open on this connection',
      });
    }
    // Guessing ids costs the guesser: a budget per address, then one answer after another, ever later. Joins
    // of rooms that exist wait in the same line once the address is over budget (the wait tells nothing).
    const delay = probes.delayFor(conn.keys.address, !rooms.get(message.roomId));
    if (delay < 0) {
      return ctx.strike(conn, {
        code: RendezvousErrorCode.RATE_LIMITED,
        message: 'too many joins from this address; slow down',
      });
    }
    if (delay === 0) return openJoin(conn, message);
    conn.strikes += 1;
    scheduler.setTimer(() => {
      if (!conn.open) return;
      if (conn.strikes >= limits.maxStrikes) {
        return ctx.strike(conn, {
          code: RendezvousErrorCode.RATE_LIMITED,
          message: 'too many joins from this address',
        });
      }
      openJoin(conn, message);
    }, delay);
  }

  function openJoin(conn: Connection, message: Extract<ClientMessage, { kind: 'join' }>): void {
    const room = rooms.get(message.roomId);
    if (!room) {
      return ctx.fail(conn, {
        code: RendezvousErrorCode.ROOM_UNKNOWN,
        message: `no room ${message.roomId}: it expired or never existed`,
      });
    }
    if (!room.host)
      return ctx.fail(conn, { code: RendezvousErrorCode.HOST_AWAY, message: 'the host is not connected right now' });
    if (conn.hosting || conn.joins.size >= limits.maxJoinsPerConnection) {
      return ctx.strike(conn, {
        code: RendezvousErrorCode.RATE_LIMITED,
        message: 'too many joins open on this connection',
      });
    }
    const refused = joins.open(conn, room, message.pake);
    if (refused) ctx.fail(conn, refused);
  }

  function handle(conn: Connection, message: ClientMessage): void {
    switch (message.kind) {
      case 'ping':
        return ctx.send(conn, { kind: RendezvousKind.PONG });
      case 'register':
        if (conn.hosting) return ctx.strike(conn, notAllowed('this connection already hosts a room'));
        if (conn.joins.size > 0) return ctx.strike(conn, notAllowed('this connection is joining a room'));
        return rooms.register(conn, message.room);
      case 'unregister':
        if (!conn.hosting) return ctx.strike(conn, notAllowed('this connection hosts no room'));
        return rooms.unregister(conn.hosting);
      case 'join':
        return join(conn, message);
      default:
        break;
    }
    const own = joins.own(conn, message.joinId);
    if (!own) {
      // A host answering a join its guest just dropped is not misbehaving: drop the reply quietly.
      if (conn.hosting?.ended.has(message.joinId)) return;
      return ctx.strike(conn, notAllowed('no such join on this connection'), message.joinId);
    }
    const { join: entry, fromHost } = own;
    switch (message.kind) {
      case 'answer':
        if (!fromHost || entry.answeredAt !== undefined) {
          return ctx.strike(conn, notAllowed('only the host answers, once'), entry.id);
        }
        joins.answered(entry);
        // No relay for the guest yet: nothing is proved until its confirmation checks (see 'accept').
        return ctx.send(entry.guest, { kind: RendezvousKind.ANSWER, joinId: entry.id, pake: message.pake });
      case 'reject':
        if (!fromHost) return ctx.strike(conn, notAllowed('only the host rejects'), entry.id);
        return joins.end(entry, {
          code: RendezvousErrorCode.REJECTED,
          message: clipText(message.reason, RENDEZVOUS_LIMITS.MAX_REASON_CHARS) || 'the host turned the join down',
        });
      case 'confirm':
        if (fromHost || entry.answeredAt === undefined || entry.confirmed) {
          return ctx.strike(conn, notAllowed('the guest confirms an answered join, once'), entry.id);
        }
        entry.confirmed = true;
        if (!entry.room.host) return;
        return ctx.send(entry.room.host, { kind: RendezvousKind.CONFIRM, joinId: entry.id, pake: message.pake });
      case 'accept':
        // The host's first word after the confirmation: it checked, so the code was proved (by this guest, or
        // by the host's own guest: hence the caps on grants). Only this earns TURN credentials: one grant for
        // each side's ICE session of this join, the guest's counted against its address and prefix.
        if (!fromHost || !entry.confirmed || entry.accepted) {
          return ctx.strike(conn, notAllowed('the host accepts a confirmed join, once'), entry.id);
        }
        joins.proven(entry);
        ctx.send(conn, { kind: RendezvousKind.TURN, joinId: entry.id, turn: ctx.turnGrant(entry, 'host') });
        return ctx.send(entry.guest, {
          kind: RendezvousKind.TURN,
          joinId: entry.id,
          turn: ctx.turnGrant(entry, 'guest'),
        });
      case 'signal': {
        // Signalling only once the host accepted (the code proved both ways): nothing of either side's ICE
        // reaches a peer that has not proved the code.
        if (!entry.accepted) return ctx.strike(conn, notAllowed('no signalling before the host accepts'), entry.id);
        const sent = fromHost ? ++entry.hostSignals : ++entry.guestSignals;
        if (sent > RENDEZVOUS_LIMITS.MAX_SIGNALS) {
          return ctx.strike(conn, { code: RendezvousErrorCode.TOO_LARGE, message: 'too many signals' }, entry.id);
        }
        const to = fromHost ? entry.guest : entry.room.host;
        if (!to) return;
        return ctx.send(to, { kind: RendezvousKind.SIGNAL, joinId: entry.id, sealed: message.sealed });
      }
    }
  }

  function receive(conn: Connection, text: string): void {
    if (!conn.open) return;
    conn.lastHeard = now();
    // A host's replies are bounded by the joins it was sent: parse them before the rate check, which they skip
    // while they name a join still open (a reply to an ended or unknown join counts like any message).
    const parsed = conn.hosting ? parseRendezvousMessage(text, clientMessageSchema) : undefined;
    const reply = parsed?.ok === true && HOST_REPLIES.has(parsed.message.kind) ? parsed.message : undefined;
    const isReply = reply !== undefined && 'joinId' in reply && conn.hosting?.joins.has(reply.joinId) === true;
    if (!isReply && !messageLimiter.allow(conn.keys.address)) {
      conn.limitedInARow += 1;
      // One error per burst of refused messages, so a flood does not get a flood back.
      const slowDown = { code: RendezvousErrorCode.RATE_LIMITED, message: 'too many messages; slow down' };
      if (conn.limitedInARow === 1) ctx.strike(conn, slowDown);
      else if (conn.limitedInARow % 16 === 0) ctx.strike(conn, { ...slowDown, message: 'still too many messages' });
      return;
    }
    conn.limitedInARow = 0;
    const message = parsed ?? parseRendezvousMessage(text, clientMessageSchema);
    if (!message.ok) return ctx.strike(conn, { code: message.code, message: message.message });
    handle(conn, message.message);
  }

  function sweep(): void {
    rooms.sweep();
    const t = now();
    for (const conn of [...connections]) {
      // Neither hosting nor joining, and silent: nothing to wait for.
      if (!conn.hosting && conn.joins.size === 0 && t - conn.lastHeard >= limits.idleMs) {
        ctx.fail(conn, { code: RendezvousErrorCode.TIMEOUT, message: 'closing an idle connection' });
        ctx.dropAndClose(conn, IDLE, 'idle');
      }
    }
  }

  const sweepTimer: TimerHandle = scheduler.setRepeating(sweep, RENDEZVOUS_SWEEP_MS);

  return {
    connect(peer) {
      const keys = addressKeysOf(peer.address);
      const count = perAddress.get(keys.address) ?? 0;
      const refuse = (why: string) => {
        peer.send({ kind: RendezvousKind.ERROR, code: RendezvousErrorCode.RATE_LIMITED, message: why });
        peer.close(POLICY_VIOLATION, why);
        return null;
      };
      if (connections.size >= limits.maxConnections) return refuse('the rendezvous has too many connections');
      if (count >= limits.maxConnectionsPerAddress) return refuse('too many connections from this address');
      if (!connectLimiter.allow(keys.address)) return refuse('connecting too often from this address');
      const conn: Connection = {
        peer,
        keys,
        hosting: null,
        joins: new Set(),
        strikes: 0,
        limitedInARow: 0,
        lastHeard: now(),
        open: true,
      };
      connections.add(conn);
      perAddress.set(keys.address, count + 1);
      ctx.send(conn, { kind: RendezvousKind.WELCOME, relays: options.turn ? [...options.turn.urls] : [] });
      return { receive: (text) => receive(conn, text), closed: () => drop(conn) };
    },
    stats: () => ({ rooms: rooms.size, joins: joins.count, connections: connections.size }),
    close() {
      scheduler.clearTimer(sweepTimer);
      for (const conn of [...connections]) ctx.dropAndClose(conn, 1001, 'rendezvous shutting down');
    },
  };
}
