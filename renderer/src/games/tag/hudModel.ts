import type { GamePhase } from '../../../../shared/games/tag/types';
import type { ViewFrame } from '../../../../shared/games/tag/client/clientView';
import type { PlayerLook } from '../../game/playerLook';

/** One scoreboard line: the player's look (a stand-in, `unnamed`, until the roster names it) and its state. */
export interface ScoreRow extends PlayerLook {
  readonly id: string;
  /** Seconds not "it", one decimal. */
  readonly score: number;
  readonly it: boolean;
  readonly self: boolean;
}

/** Everything the HUD shows, refreshed a few times a second (never per frame). */
export interface HudState {
  /** 'connecting' until the first snapshot. */
  readonly phase: GamePhase | 'connecting';
  /** Whole seconds left, rounded up (what a countdown shows). */
  readonly secondsLeft: number;
  readonly rows: readonly ScoreRow[];
  /** Who is "it", null when nobody (yet). */
  readonly it: ScoreRow | null;
  /** Seconds until the local player may tag again (0: ready). */
  readonly cooldown: number;
  /** Whole seconds of the round's 3-2-1 still to run, rounded up (0: the round is on). */
  readonly countdown: number;
}

/** The HUD before any snapshot. */
export const CONNECTING_HUD: HudState = {
  phase: 'connecting',
  secondsLeft: 0,
  rows: [],
  it: null,
  cooldown: 0,
  countdown: 0,
};

/** The HUD for a frame: scoreboard sorted by score (ties by join order), "it", timer, own cooldown. */
export function hudOf(frame: ViewFrame, look: (id: string) => PlayerLook): HudState {
  if (frame.tick === undefined) return CONNECTING_HUD;
  const rows = frame.players
    .map((p, order) => ({ order, row: { id: p.id, ...look(p.id), score: p.score, it: p.it, self: p.self } }))
    .sort((a, b) => b.row.score - a.row.score || a.order - b.order)
    .map((entry) => entry.row);
  const self = frame.players.find((p) => p.self);
  return {
    phase: frame.phase,
    secondsLeft: Number.isFinite(frame.timeRemaining) ? Math.max(0, Math.ceil(frame.timeRemaining)) : 0,
    rows,
    it: rows.find((r) => r.it) ?? null,
    cooldown: self === undefined ? 0 : Math.max(0, self.cooldown),
    countdown: frame.phase === 'playing' && frame.countdown > 0 ? Math.ceil(frame.countdown - 1e-9) : 0,
  };
}

/** Whether two HUD states would render the same (so React is only told about real changes). */
export function sameHud(a: HudState, b: HudState): boolean {
  if (a.phase !== b.phase || a.secondsLeft !== b.secondsLeft || a.it?.id !== b.it?.id) return false;
  if (a.countdown !== b.countdown) return false;
  if (Math.ceil(a.cooldown * 10) !== Math.ceil(b.cooldown * 10) || a.rows.length !== b.rows.length) return false;
  return a.rows.every((r, i) => {
    const o = b.rows[i]!;
    return r.id === o.id && r.score === o.score && r.it === o.it && r.name === o.name && r.colour === o.colour;
  });
}
