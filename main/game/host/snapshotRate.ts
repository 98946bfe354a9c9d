import { GAME_TICK_RATE } from '../../../shared/game/gameProtocol';

/** What the rate choice reads of one guest link (ConnectionStats has these). */
export interface LinkHealth {
  /** Smoothed round trip, seconds; undefined before a sample. */
  readonly rtt: number | undefined;
  /** Least round trip lately, seconds (the path's own delay); undefined without a recent sample. */
  readonly minRtt?: number | undefined;
  /** Fraction (0–1) of datagrams lost lately. */
  readonly loss: number;
}

/**
 * Where the rate changes. A LAN's round trip is a few ms; a path whose least round trip lately is past `lanRtt` is the
 * internet, whose guests get half the rate (their upstream and the host's are the scarce part there). Loss above
 * `lanLoss` halves it too (the snapshots add to whatever is congested), above `heavyLoss` a third.
 */
export const SNAPSHOT_RATE_LIMITS = { lanRtt: 0.03, lanLoss: 0.01, heavyLoss: 0.1 } as const;

/** Evaluations in a row the links must allow a higher rate before it is taken (down goes at once). */
export const RATE_UP_AFTER = 3;

/** Ticks per snapshot the worst link allows: 1 (60 a second) on a LAN, 2 (30) on internet paths or loss, 3 (20). */
export function snapshotEveryFor(links: readonly LinkHealth[]): number {
  let every = 1;
  for (const link of links) {
    const loss = Number.isFinite(link.loss) ? link.loss : 0;
    if (loss > SNAPSHOT_RATE_LIMITS.heavyLoss) every = Math.max(every, 3);
    else if (loss > SNAPSHOT_RATE_LIMITS.lanLoss) every = Math.max(every, 2);
    // The path's class is its least round trip lately: a stalled host or guest answers a heartbeat late and lifts the
    // smoothed figure past a LAN's for seconds, which is no reason to halve a LAN room's rate (the smoothed one stands
    // in until a least one is known). A link not measured yet does not hold the room back.
    const pathRtt = link.minRtt ?? link.rtt;
    if (pathRtt !== undefined && pathRtt > SNAPSHOT_RATE_LIMITS.lanRtt) every = Math.max(every, 2);
  }
  return every;
}

/** The room's snapshot rate as the host keeps it: ticks per snapshot, and evaluations the links allowed more. */
export interface SnapshotRate {
  readonly every: number;
  readonly better: number;
}

/** The first rate of a round: what the links allow now. */
export function initialSnapshotRate(links: readonly LinkHealth[]): SnapshotRate {
  return { every: snapshotEveryFor(links), better: 0 };
}

/** One evaluation: a lower rate at once, a higher one after RATE_UP_AFTER evaluations in a row allowed it. */
export function nextSnapshotRate(rate: SnapshotRate, links: readonly LinkHealth[]): SnapshotRate {
  const allowed = snapshotEveryFor(links);
  if (allowed >= rate.every) return { every: allowed, better: 0 };
  const better = rate.better + 1;
  return better >= RATE_UP_AFTER ? { every: allowed, better: 0 } : { every: rate.every, better };
}

/** Snapshots a second at `every` ticks per snapshot. */
export function snapshotsPerSecond(every: number): number {
  return GAME_TICK_RATE / every;
}
