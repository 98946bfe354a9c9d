import { RendezvousErrorCode, RendezvousKind } from '../../shared/rendezvous';
import type { Connection, Join, Refusal, Room, ServiceContext } from './rendezvousState';

/** Joins in flight: opened by a guest, answered (or rejected) by the host, confirmed, then left for the signalling. */
export interface JoinTable {
  /** Opens a join of `room` for `guest`, or says why not (the caller answers). */
  open(guest: Connection, room: Room, pake: string): Refusal | undefined;
  /** Ends a join (telling the guest why, when given) and frees its place. */
  end(join: Join, tellGuest?: Refusal): void;
  /** Marks the host's answer: the join stops holding a pending place and keeps only the trickle window. */
  answered(join: Join): void;
  /** The join `joinId` if this connection is its host or its guest. */
  own(conn: Connection, joinId: string): { join: Join; fromHost: boolean } | undefined;
  /** Ends the joins of `room` whose time is up (pending: the host did not answer; answered: trickle over). */
  sweep(room: Room): void;
  readonly count: number;
}

const RECENTLY_ENDED = 64;

/** The join table; `newJoinId` gives fresh random ids (16 base64url characters). */
export function createJoinTable(ctx: ServiceContext, newJoinId: () => string): JoinTable {
  let count = 0;
  const pending = (room: Room) => [...room.joins.values()].filter((join) => join.answeredAt === undefined);

  return {
    get count() {
      return count;
    },
    open(guest, room, pake) {
      const { limits } = ctx;
      const waiting = pending(room);
      if (waiting.length >= limits.maxPendingJoinsPerRoom) {
        return { code: RendezvousErrorCode.ROOM_FULL, message: 'too many players are joining this room right now' };
      }
      // One address cannot fill the room's pending places (or keep it unjoinable by re-opening them).
      const fromAddress = waiting.filter((join) => join.guest.peer.address === guest.peer.address).length;
      if (fromAddress >= limits.maxPendingJoinsPerAddressPerRoom) {
        return {
          code: RendezvousErrorCode.RATE_LIMITED,
          message: 'this address already has joins waiting on this room',
        };
      }
      const join: Join = {
        id: newJoinId(),
        room,
        guest,
        createdAt: ctx.now(),
        answeredAt: undefined,
        confirmed: false,
        hostSignals: 0,
        guestSignals: 0,
      };
      room.joins.set(join.id, join);
      guest.joins.add(join);
      count += 1;
      if (room.host) ctx.send(room.host, { kind: RendezvousKind.JOIN_REQUEST, joinId: join.id, pake });
      ctx.send(guest, { kind: RendezvousKind.JOIN_PENDING, joinId: join.id });
      return undefined;
    },
    end(join, tellGuest) {
      const { room } = join;
      if (!room.joins.delete(join.id)) return;
      room.ended.add(join.id);
      if (room.ended.size > RECENTLY_ENDED) room.ended.delete(room.ended.values().next().value as string);
      join.guest.joins.delete(join);
      count -= 1;
      if (tellGuest) ctx.fail(join.guest, tellGuest, join.id);
    },
    answered(join) {
      join.answeredAt = ctx.now();
    },
    own(conn, joinId) {
      const asHost = conn.hosting?.joins.get(joinId);
      if (asHost) return { join: asHost, fromHost: true };
      for (const join of conn.joins) if (join.id === joinId) return { join, fromHost: false };
      return undefined;
    },
    sweep(room) {
      const t = ctx.now();
      for (const join of [...room.joins.values()]) {
        if (join.answeredAt === undefined) {
          if (t - join.createdAt >= ctx.limits.joinTtlMs) {
            this.end(join, { code: RendezvousErrorCode.TIMEOUT, message: 'the host did not answer in time' });
          }
        } else if (t - join.answeredAt >= ctx.limits.trickleTtlMs) {
          this.end(join);
        }
      }
    },
  };
}
