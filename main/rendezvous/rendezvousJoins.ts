import { RendezvousErrorCode, RendezvousKind } from '../../shared/rendezvous';
import type { Connection, Join, Refusal, Room, ServiceContext } from './rendezvousState';

/** Joins in flight: opened by a guest, answered (or rejected) by the host, confirmed, then left for the signalling. */
export interface JoinTable {
  /** Opens a join of `room` for `guest`, or says why not (the caller answers). */
  open(guest: Connection, room: Room, pake: string): Refusal | undefined;
  /** Ends a join (telling the guest why, when given) and frees its place. */
  end(join: Join, tellGuest?: Refusal): void;
  /**
   * Marks the host's answer: the join stops holding a pending place and keeps only the trickle window, and it
   * counts against its guest's address on this room until {@link proven}.
   */
  answered(join: Join): void;
  /** The host accepted the guest (its confirmation checked): the join no longer counts against its address. */
  proven(join: Join): void;
  /** The join `joinId` if this connection is its host or its guest. */
  own(conn: Connection, joinId: string): { join: Join; fromHost: boolean } | undefined;
  /** Ends the joins of `room` whose time is up (pending: the host did not answer; answered: trickle over). */
  sweep(room: Room): void;
  readonly count: number;
}

const RECENTLY_ENDED = 64;
/** Guest addresses whose unproven joins a room remembers (the oldest are forgotten first). */
const UNPROVEN_ADDRESSES = 1024;

/** The unproven joins of `address` on `room` still inside the window (older ones are dropped). */
function unprovenOf(ctx: ServiceContext, room: Room, address: string): Map<string, number> | undefined {
  const entries = room.unproven.get(address);
  if (!entries) return undefined;
  const since = ctx.now() - ctx.limits.unprovenJoinWindowMs;
  for (const [joinId, at] of entries) if (at <= since) entries.delete(joinId);
  if (entries.size === 0) room.unproven.delete(address);
  return entries.size > 0 ? entries : undefined;
}

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
      // Answered and not yet accepted: the host's checks in flight, bounded for the room whoever asks. At the cap
      // the oldest goes rather than the newcomer: a real guest confirms within a round trip of its answer, so
      // joins held open unconfirmed (squatters) never keep the room shut.
      const checking = [...room.joins.values()].filter((join) => join.answeredAt !== undefined && !join.accepted);
      checking.sort((a, b) => (a.answeredAt ?? 0) - (b.answeredAt ?? 0));
      for (const stale of checking.slice(0, Math.max(0, checking.length - limits.maxUnprovenJoinsPerRoom + 1))) {
        this.end(stale, { code: RendezvousErrorCode.TIMEOUT, message: 'the join was not confirmed in time' });
      }
      const address = guest.keys.address;
      // One address cannot fill the room's pending places (or keep it unjoinable by re-opening them).
      const fromAddress = waiting.filter((join) => join.guest.keys.address === address).length;
      if (fromAddress >= limits.maxPendingJoinsPerAddressPerRoom) {
        return {
          code: RendezvousErrorCode.RATE_LIMITED,
          message: 'this address already has joins waiting on this room',
        };
      }
      // Each answer spends one of the room's guesses: one address cannot spend them all (and keep guests out).
      const unproven = unprovenOf(ctx, room, address);
      // Pending ones count too: each may be answered a moment from now.
      if ((unproven?.size ?? 0) + fromAddress >= limits.maxUnprovenJoinsPerAddressPerRoom) {
        // One still open may yet get in in a moment (friends behind one router joining together); else the
        // oldest leaves the window.
        const open = fromAddress > 0 || [...unproven!.keys()].some((id) => room.joins.has(id));
        const oldest = Math.min(...(unproven?.values() ?? []));
        const wait = open ? 5 : Math.ceil((oldest + limits.unprovenJoinWindowMs - ctx.now()) / 1000);
        return {
          code: RendezvousErrorCode.RATE_LIMITED,
          message: `too many joins of this room from this address did not get in; try again in ${wait} s`,
        };
      }
      const join: Join = {
        id: newJoinId(),
        room,
        guest,
        createdAt: ctx.now(),
        answeredAt: undefined,
        confirmed: false,
        accepted: false,
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
      const { room } = join;
      const address = join.guest.keys.address;
      const entries = room.unproven.get(address) ?? new Map<string, number>();
      entries.set(join.id, join.answeredAt);
      room.unproven.delete(address);
      room.unproven.set(address, entries);
      if (room.unproven.size > UNPROVEN_ADDRESSES) room.unproven.delete(room.unproven.keys().next().value as string);
    },
    proven(join) {
      join.accepted = true;
      const entries = join.room.unproven.get(join.guest.keys.address);
      entries?.delete(join.id);
      if (entries?.size === 0) join.room.unproven.delete(join.guest.keys.address);
    },
    own(conn, joinId) {
      const asHost = conn.hosting?.joins.get(joinId);
      if (asHost) return { join: asHost, fromHost: true };
      for (const join of conn.joins) if (join.id === joinId) return { join, fromHost: false };
      return undefined;
    },
    sweep(room) {
      const t = ctx.now();
      for (const address of [...room.unproven.keys()]) unprovenOf(ctx, room, address);
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
