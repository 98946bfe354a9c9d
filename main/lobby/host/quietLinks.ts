import { HOST_PLAYER_ID } from '../../../shared/lobby/lobbyState';

/** How often the host looks for quiet links, in ms. */
export const QUIET_CHECK_MS = 250;

/**
 * How long a guest may go unheard before it shows "reconnecting…": the transport's heartbeat interval (both ends
 * ping that often, so a live guest is heard at least once an interval; the lobby's 2 s ping events come on top,
 * acknowledged) plus 1.5 s of slack for a busy machine. 2.5 s with the default 1 s heartbeat: within a path
 * keeper's ICE restart (1–2.5 s of silence, then the restart), well before the seat-hold timeout.
 */
export function quietAfterMs(heartbeatIntervalSec = 1): number {
  return Math.round(heartbeatIntervalSec * 1000) + 1500;
}

/** One seated guest's connection at a check: its seat, the connection's id and its datagrams received so far. */
export interface LinkSample {
  readonly seat: number;
  readonly peerId: number;
  readonly received: number;
}

/** A seat whose "reconnecting…" marker changes. */
export interface QuietChange {
  readonly seat: number;
  readonly quiet: boolean;
}

/**
 * Which seated guests' links went quiet: not heard (no datagram counted) for longer than `quietAfter` ms. Pure:
 * the caller samples the transport's counters on its clock. A new connection under a seat counts as heard; a
 * seat missing from a check (gone, or held after a timeout, which shows its own countdown) is forgotten.
 */
export class QuietLinks {
  private readonly heard = new Map<number, { peerId: number; received: number; at: number }>();
  private readonly quiet = new Set<number>();

  constructor(private readonly quietAfter: number) {}

  /** The seats marked quiet now. */
  get quietSeats(): ReadonlySet<number> {
    return this.quiet;
  }

  /** Updates from the samples taken at `now`; returns the markers to set or clear. */
  check(now: number, samples: readonly LinkSample[]): QuietChange[] {
    const changes: QuietChange[] = [];
    const present = new Set<number>();
    for (const { seat, peerId, received } of samples) {
      if (seat === HOST_PLAYER_ID) continue;
      present.add(seat);
      const last = this.heard.get(seat);
      if (!last || last.peerId !== peerId || last.received !== received)
        this.heard.set(seat, { peerId, received, at: now });
      const quiet = now - this.heard.get(seat)!.at > this.quietAfter;
      if (quiet === this.quiet.has(seat)) continue;
      if (quiet) this.quiet.add(seat);
      else this.quiet.delete(seat);
      changes.push({ seat, quiet });
    }
    for (const seat of [...this.heard.keys()]) {
      if (present.has(seat)) continue;
      this.heard.delete(seat);
      if (this.quiet.delete(seat)) changes.push({ seat, quiet: false });
    }
    return changes;
  }
}
