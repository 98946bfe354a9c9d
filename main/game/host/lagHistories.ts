import { DEFAULT_MAX_REWIND } from '../../../shared/game/lagLookup';
import { MAX_REPORTED_INTERPOLATION_DELAY } from '../../../shared/game/gameProtocol';
import type { PlayerId, Point, PositionLookup } from '../../../shared/games/gameDefinition';
import { PositionRing } from './positionRing';

/** Positions kept per player: 32 ticks ≈ 0.53 s at 60 Hz, more than the longest rewind (0.35 s). */
const HISTORY_CAPACITY = 32;

/** What one hit attempt's rewind is made of, in seconds. */
export interface RewindParts {
  /** Host time between the input's arrival and the tick applying it. */
  readonly queueDelay: number;
  /** The shooter's smoothed round-trip time (undefined: not measured yet, or the host's own player). */
  readonly rtt: number | undefined;
  /** The interpolation delay the shooter reported (clamped here). */
  readonly interpolationDelay: number;
}

/**
 * How far back the shooter saw the world. The client maps snapshot times onto its clock with the least-delayed
 * snapshot, so it draws other players at (host time − downstream delay − interpolation delay); its input then
 * needs the upstream delay to arrive and waits in the queue. Hence queue delay + RTT (up + down) + interpolation
 * delay — not RTT/2, which would assume a client clock synchronised to the host's true time. The sum is clamped to
 * DEFAULT_MAX_REWIND by the lookup.
 */
export function rewindSeconds(parts: RewindParts): number {
  const delay = Math.min(MAX_REPORTED_INTERPOLATION_DELAY, Math.max(0, parts.interpolationDelay));
  const rtt = parts.rtt !== undefined && Number.isFinite(parts.rtt) ? Math.max(0, parts.rtt) : 0;
  return Math.max(0, parts.queueDelay) + rtt + delay;
}

/**
 * Per-player position histories stamped with host game time, for lag-compensated hits (tag's tags): a target is
 * looked up where it was `rewind` seconds before the tick resolving the hit.
 */
export class LagHistories {
  private readonly histories = new Map<PlayerId, PositionRing>();
  private readonly rewinds = new Map<PlayerId, number>();
  /** The step's `rewound` lookup: the target where it was the shooter's rewind (at most DEFAULT_MAX_REWIND) ago. */
  readonly lookup: PositionLookup;

  constructor(private readonly now: () => number) {
    this.lookup = (targetId, shooterId) => {
      const history = this.histories.get(targetId);
      const rewind = this.rewinds.get(shooterId);
      if (history === undefined || rewind === undefined || !Number.isFinite(rewind)) return undefined;
      const point = history.at(this.now() - Math.min(DEFAULT_MAX_REWIND, Math.max(0, rewind)));
      return point !== undefined && Number.isFinite(point.x) && Number.isFinite(point.y) ? point : undefined;
    };
  }

  /** Sets how far back `shooter`'s hits this tick looks (seconds; undefined = no rewind). */
  setRewind(shooter: PlayerId, rewind: number | undefined): void {
    if (rewind === undefined) this.rewinds.delete(shooter);
    else this.rewinds.set(shooter, rewind);
  }

  /** Appends every player's position at the current host time. */
  record(players: Iterable<{ readonly id: PlayerId } & Point>): void {
    const now = this.now();
    for (const p of players) {
      let history = this.histories.get(p.id);
      if (history === undefined) {
        history = new PositionRing(HISTORY_CAPACITY);
        this.histories.set(p.id, history);
      }
      history.push(now, p.x, p.y);
    }
  }

  /** Forgets a player who left. */
  remove(id: PlayerId): void {
    this.histories.delete(id);
    this.rewinds.delete(id);
  }
}
