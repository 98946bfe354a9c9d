import type { CyclesFrame } from '../../../../shared/games/light-cycles/clientView';
import type { GamePhase } from '../../../../shared/games/light-cycles/types';
import type { PlayerLook } from '../../game/playerLook';

/** One rider in the side list. */
export interface RiderRow {
  readonly id: string;
  readonly name: string;
  readonly colour: string;
  readonly alive: boolean;
  readonly self: boolean;
  /** Seconds ridden, one decimal. */
  readonly survived: number;
}

/** What the light-cycles HUD shows, refreshed a few times a second. */
export interface CyclesHudState {
  readonly phase: GamePhase | 'connecting';
  /** Whole seconds left, rounded up. */
  readonly secondsLeft: number;
  /** Whole seconds of the 3-2-1 left, rounded up (0: riding). */
  readonly countdown: number;
  readonly riding: number;
  readonly rows: readonly RiderRow[];
}

/** The HUD before any snapshot. */
export const CONNECTING_CYCLES_HUD: CyclesHudState = {
  phase: 'connecting',
  secondsLeft: 0,
  countdown: 0,
  riding: 0,
  rows: [],
};

/** The HUD of a frame: riders still riding first (longest ridden first), then the crashed ones. */
export function cyclesHudOf(frame: CyclesFrame, look: (id: string) => PlayerLook): CyclesHudState {
  const rows = frame.cycles
    .map((c, order) => ({
      row: { id: c.id, ...look(c.id), alive: c.alive, self: c.self, survived: Math.round(c.survived * 10) / 10 },
      order,
    }))
    .sort((a, b) => Number(b.row.alive) - Number(a.row.alive) || b.row.survived - a.row.survived || a.order - b.order)
    .map(({ row }) => row);
  return {
    phase: frame.phase,
    secondsLeft: Math.ceil(Math.max(0, frame.timeRemaining) - 1e-9),
    countdown: Math.ceil(Math.max(0, frame.countdown) - 1e-9),
    riding: rows.filter((r) => r.alive).length,
    rows,
  };
}

/** Whether two HUD states render the same. */
export function sameCyclesHud(a: CyclesHudState, b: CyclesHudState): boolean {
  if (a.phase !== b.phase || a.secondsLeft !== b.secondsLeft || a.countdown !== b.countdown) return false;
  if (a.riding !== b.riding || a.rows.length !== b.rows.length) return false;
  return a.rows.every((r, i) => {
    const o = b.rows[i]!;
    return (
      r.id === o.id && r.alive === o.alive && r.survived === o.survived && r.name === o.name && r.colour === o.colour
    );
  });
}
