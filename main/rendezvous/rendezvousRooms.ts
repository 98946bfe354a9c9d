import { RendezvousErrorCode, RendezvousKind } from '../../shared/rendezvous';
import type { JoinTable } from './rendezvousJoins';
import type { RoomSecrets } from './roomSecrets';
import type { Connection, Refusal, Room, ServiceContext } from './rendezvousState';

/**
 * Rooms by id: registration (new or by the owner's secret), the host's grace period, expiry; new rooms capped
 * in all, per address and per prefix (a held room's owner registering it again never is).
 */
export interface RoomRegistry {
  get(roomId: string): Room | undefined;
  /** Registers a new room for `conn`, or the owner's room again (after a dropped link or a restart). */
  register(conn: Connection, room?: { roomId: string; roomSecret: string }): void;
  /** The host closed the room: waiting guests hear so. */
  unregister(room: Room): void;
  /** The host's connection went away: the room waits `hostGraceMs` for it. */
  hostLeft(room: Room): void;
  /** Expires rooms past their hard cap or grace, and sweeps their joins. */
  sweep(): void;
  readonly size: number;
}

const expired: Refusal = { code: RendezvousErrorCode.ROOM_UNKNOWN, message: 'the room expired' };

/** The registry; `wallClock` is unix milliseconds (for the `expiresAt` a host is told). */
export function createRoomRegistry(
  ctx: ServiceContext,
  secrets: RoomSecrets,
  joins: JoinTable,
  wallClock: () => number,
): RoomRegistry {
  const rooms = new Map<string, Room>();
  // Ids of rooms that reached their hard cap: refused for re-registration until the cap would have passed again.
  const retired = new Map<string, number>();
  const { limits, logger } = ctx;
  // Rooms held per registering address and prefix (keys of AddressKeys; the two never collide: a prefix has a '/').
  const held = new Map<string, number>();
  const count = (key: string, by: number) => {
    const next = (held.get(key) ?? 0) + by;
    if (next <= 0) held.delete(key);
    else held.set(key, next);
  };
  const forget = (room: Room) => {
    if (!rooms.delete(room.id)) return;
    count(room.owner.address, -1);
    if (room.owner.prefix !== room.owner.address) count(room.owner.prefix, -1);
  };

  const newRoom = (id: string, host: Connection): Room => {
    const room: Room = {
      id,
      createdAt: ctx.now(),
      owner: host.keys,
      host,
      hostLeftAt: 0,
      joins: new Map(),
      ended: new Set(),
      unproven: new Map(),
    };
    rooms.set(id, room);
    count(room.owner.address, 1);
    if (room.owner.prefix !== room.owner.address) count(room.owner.prefix, 1);
    host.hosting = room;
    return room;
  };

  const sendRegistered = (conn: Connection, room: Room) => {
    const expiresAt = Math.round(wallClock() + (room.createdAt + limits.roomMaxAgeMs - ctx.now()));
    const roomSecret = secrets.secretFor(room.id);
    ctx.send(conn, { kind: RendezvousKind.REGISTERED, roomId: room.id, roomSecret, expiresAt });
  };

  const remove = (room: Room, guestsHear: Refusal) => {
    for (const join of [...room.joins.values()]) joins.end(join, guestsHear);
    if (room.host) room.host.hosting = null;
    forget(room);
  };

  /** Refuses a room that would be new (true), telling `conn` why: the service, its address or prefix is full. */
  const refusedNew = (conn: Connection): boolean => {
    if (rooms.size >= limits.maxRooms) {
      ctx.fail(conn, { code: RendezvousErrorCode.SERVICE_FULL, message: 'no room for more rooms' });
      return true;
    }
    const { address, prefix } = conn.keys;
    const byAddress = (held.get(address) ?? 0) >= limits.maxRoomsPerAddress;
    if (byAddress || (prefix !== address && (held.get(prefix) ?? 0) >= limits.maxRoomsPerPrefix)) {
      ctx.strike(conn, {
        code: RendezvousErrorCode.RATE_LIMITED,
        message: `too many rooms registered from this ${byAddress ? 'address' : 'network'}; close one first`,
      });
      return true;
    }
    return false;
  };

  return {
    get size() {
      return rooms.size;
    },
    get: (roomId) => rooms.get(roomId),
    register(conn, claim) {
      if (!claim) {
        if (refusedNew(conn)) return;
        for (let attempt = 0; attempt < 16; attempt++) {
          const id = secrets.newId();
          if (rooms.has(id) || retired.has(id)) continue;
          const room = newRoom(id, conn);
          logger.info(`room ${id} registered from ${conn.peer.address}`);
          return sendRegistered(conn, room);
        }
        return ctx.fail(conn, { code: RendezvousErrorCode.SERVICE_FULL, message: 'no free room id' });
      }
      const { roomId, roomSecret } = claim;
      // Only the owner's secret (HMAC of the id under the service key) re-registers an id, held or not.
      if (!secrets.owns(roomId, roomSecret)) {
        return ctx.strike(conn, { code: RendezvousErrorCode.ROOM_TAKEN, message: 'that is not the room’s secret' });
      }
      if (retired.has(roomId)) return ctx.fail(conn, expired);
      const room = rooms.get(roomId);
      if (room?.host) {
        // The old connection has not noticed it is dead yet (or the owner opened a second one): the newest wins.
        const old = room.host;
        old.hosting = null;
        room.host = null;
        ctx.fail(old, {
          code: RendezvousErrorCode.ROOM_TAKEN,
          message: 'the room was registered again from another connection',
        });
        ctx.dropAndClose(old, 4000, 'replaced');
      }
      if (room) {
        room.host = conn;
        conn.hosting = room;
        return sendRegistered(conn, room);
      }
      // A restarted service, or an owner back after its grace: the same id again, a new room for the caps.
      if (refusedNew(conn)) return;
      sendRegistered(conn, newRoom(roomId, conn));
    },
    unregister(room) {
      logger.info(`room ${room.id} closed by its host`);
      remove(room, { code: RendezvousErrorCode.ROOM_UNKNOWN, message: 'the host closed the room' });
    },
    hostLeft(room) {
      room.host = null;
      room.hostLeftAt = ctx.now();
      for (const join of [...room.joins.values()]) {
        joins.end(join, {
          code: RendezvousErrorCode.HOST_AWAY,
          message: 'the host lost its connection to the rendezvous',
        });
      }
    },
    sweep() {
      const t = ctx.now();
      for (const room of [...rooms.values()]) {
        if (t - room.createdAt >= limits.roomMaxAgeMs) {
          logger.info(`room ${room.id} reached its hard cap`);
          if (room.host) ctx.fail(room.host, expired);
          remove(room, expired);
          if (retired.size >= limits.maxRooms) retired.delete(retired.keys().next().value as string);
          retired.set(room.id, room.createdAt + 2 * limits.roomMaxAgeMs);
        } else if (!room.host && t - room.hostLeftAt >= limits.hostGraceMs) {
          forget(room);
        } else {
          joins.sweep(room);
        }
      }
      for (const [id, until] of retired) if (t >= until) retired.delete(id);
    },
  };
}
