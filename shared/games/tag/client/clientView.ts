import { SnapshotInterpolator } from '../../../net/snapshotInterpolator';
import {
  interpolationDelayOf,
  type InterpolationDelay,
  type InterpolationDelaySetting,
} from '../../../game/adaptiveInterpolationDelay';
import { LocalPrediction, type ClientControls, type PredictionStats } from './localPrediction';
import { DEFAULT_ARENA, RULES } from '../rules';
import { decodeSnapshotPlayers, type DecodedSnapshotPlayer, type GameSnapshot } from '../wire/snapshot';
import type { Arena, GamePhase, PlayerBody, PlayerId, PlayerInput } from '../types';

export type { ClientControls } from './localPrediction';

/** Options of {@link ClientView}. */
export interface ClientViewOptions {
  /** The local player's id. */
  readonly playerId: PlayerId;
  /** Must be the host's arena. Default DEFAULT_ARENA. */
  readonly arena?: Arena;
  /**
   * How far in the past other players are drawn: seconds, or 'adaptive' (as old as the newest snapshot is at nearly
   * every frame, see AdaptiveInterpolationDelay). Default 0.1 (three 30 Hz snapshots).
   */
  readonly interpolationDelay?: InterpolationDelaySetting;
  /** A prediction error is blended out over about this long (to 5%), seconds. Default 0.1. */
  readonly correctionTime?: number;
  /** A prediction error longer than this (arena units) is snapped, not blended. Default 100. */
  readonly snapDistance?: number;
  /** Most local ticks one advance() runs after a stall; the rest is skipped. Default 8. */
  readonly maxCatchUpTicks?: number;
  /**
   * When the moment to draw is past the newest snapshot (several lost in a row, or a late one), other players keep
   * moving with their last velocity for up to this long (seconds) instead of freezing and then jumping. Default 0.1.
   */
  readonly maxExtrapolation?: number;
}

/** One player to draw. */
export interface ViewPlayer {
  readonly id: PlayerId;
  readonly x: number;
  readonly y: number;
  readonly it: boolean;
  readonly score: number;
  readonly cooldown: number;
  /** Seconds it cannot be tagged (it just passed "it" on). */
  readonly immunity: number;
  /** The local player (predicted); others are interpolated. */
  readonly self: boolean;
  /**
   * Drawn past its newest snapshot at its last velocity (snapshots lost or late), not between two it received:
   * what the key-to-pixel bench counts (bench/keyToPixel). Never for the local player.
   */
  readonly extrapolated: boolean;
}

/** Everything to draw at one moment. */
export interface ViewFrame {
  /** Host tick of the newest snapshot, undefined before the first. */
  readonly tick: number | undefined;
  readonly phase: GamePhase;
  readonly timeRemaining: number;
  /** Seconds of the round's countdown still to run (0: moving). */
  readonly countdown: number;
  readonly players: readonly ViewPlayer[];
}

/** Counters of a client view. */
export type ClientViewStats = PredictionStats;

/** The controls sent while the countdown runs. */
const STILL: ClientControls = { moveX: 0, moveY: 0, tag: false };

type World = Record<PlayerId, { x: number; y: number; it: boolean }>;

function checked(name: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new RangeError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got ${value}`);
  }
  return value;
}

/**
 * What one client draws, pure and with time injected (seconds): the local player predicted from its own inputs
 * (LocalPrediction: replayed on every snapshot, errors blended out, not snapped), everyone else interpolated
 * `interpolationDelay` in the past on the host's timeline (one SnapshotInterpolator, server-time stamped, so jitter
 * does not show; the delay fixed or following the snapshots). Used by the renderer and by headless tests alike.
 */
export class ClientView {
  readonly playerId: PlayerId;
  private readonly delay: InterpolationDelay;
  private readonly arena: Arena;
  private readonly maxExtrapolation: number;
  private readonly local: LocalPrediction;
  private readonly world: SnapshotInterpolator<World>;
  private clock = 0;
  private latest: GameSnapshot | undefined;
  private latestPlayers: DecodedSnapshotPlayer[] = [];

  constructor(options: ClientViewOptions) {
    this.playerId = options.playerId;
    this.arena = options.arena ?? DEFAULT_ARENA;
    this.delay = interpolationDelayOf(options.interpolationDelay ?? 0.1);
    this.maxExtrapolation = checked('maxExtrapolation', options.maxExtrapolation ?? 0.1, true);
    this.local = new LocalPrediction({
      arena: this.arena,
      correctionTime: checked('correctionTime', options.correctionTime ?? 0.1),
      snapDistance: checked('snapDistance', options.snapDistance ?? 100),
      maxCatchUp: checked('maxCatchUpTicks', options.maxCatchUpTicks ?? 8),
    });
    this.world = new SnapshotInterpolator<World>({ now: () => this.clock, capacity: 32 });
  }

  /** How far in the past other players are drawn now, seconds. */
  get interpolationDelay(): number {
    return this.delay.at(this.clock);
  }

  /**
   * Runs the local ticks due by `now` (fixed 60 Hz): each turns `controls` into an input with the next sequence and
   * predicts the local player's movement. Returns the new inputs, oldest first, for GameLink.sendInputs. Nothing is
   * produced until the first snapshot containing the local player.
   */
  advance(now: number, controls: ClientControls): PlayerInput[] {
    this.clock = now;
    // The host ignores inputs during the countdown; predicting them would only be corrected back.
    const frozen = (this.latest?.c ?? 0) > 0;
    return this.local.advance(now, frozen ? STILL : controls);
  }

  /** Takes an authoritative snapshot received at `now`: reconciles the local player, records everyone else. */
  applySnapshot(snapshot: GameSnapshot, now: number): void {
    this.clock = now;
    const players = decodeSnapshotPlayers(snapshot);
    const world: World = {};
    for (const p of players) if (p.id !== this.playerId) world[p.id] = { x: p.x, y: p.y, it: p.it };
    this.world.add(world, { serverTime: snapshot.t });
    this.delay.observe(snapshot.t);
    if (this.latest === undefined || snapshot.k > this.latest.k) {
      this.latest = snapshot;
      this.latestPlayers = players;
    }
    const own = players.find((p) => p.id === this.playerId);
    if (own !== undefined) this.local.reconcile(own, snapshot.k, now);
  }

  /** Where to draw everyone at `now`. */
  sample(now: number): ViewFrame {
    this.clock = now;
    const delay = this.delay.at(now);
    const past = this.world.sample(now - delay) ?? {};
    const offset = this.world.clockOffset;
    const latest = this.latest;
    // How old the newest snapshot is now on the host's timeline, and how far the drawn moment is past it (0 while
    // interpolating).
    const age = latest === undefined || offset === undefined ? undefined : now - offset - latest.t;
    const beyond = age === undefined ? 0 : Math.max(0, age - delay);
    if (age !== undefined) this.delay.drew(age, now);
    const ahead = Math.min(this.maxExtrapolation, beyond);
    const players = this.latestPlayers.map((p): ViewPlayer => {
      const base = { id: p.id, it: p.it, score: p.score, cooldown: p.cooldown, immunity: p.immunity };
      if (p.id === this.playerId) {
        const at = this.local.position(now) ?? p;
        return { ...base, x: at.x, y: at.y, self: true, extrapolated: false };
      }
      if (ahead > 0) return { ...base, ...this.extrapolate(p, ahead), self: false, extrapolated: true };
      const seen = past[p.id];
      return seen
        ? { ...base, x: seen.x, y: seen.y, it: seen.it, self: false, extrapolated: false }
        : { ...base, x: p.x, y: p.y, self: false, extrapolated: false };
    });
    const countdown = latest?.c ?? 0;
    return { tick: latest?.k, phase: latest?.ph ?? 'waiting', timeRemaining: latest?.r ?? 0, countdown, players };
  }

  /** The local player's raw prediction (no blending), undefined before the first snapshot. */
  get predicted(): PlayerBody | undefined {
    return this.local.predicted;
  }

  /** Inputs sent but not yet acknowledged by the host. */
  get pendingInputs(): number {
    return this.local.pendingCount;
  }

  /** Counters for diagnostics and tests. */
  stats(): ClientViewStats {
    return { ...this.local.counters };
  }

  /** A remote player `seconds` past its newest snapshot at its last velocity, kept inside the arena walls. */
  private extrapolate(p: DecodedSnapshotPlayer, seconds: number): { x: number; y: number } {
    const r = RULES.playerRadius;
    const clamp = (v: number, max: number) => Math.min(max - r, Math.max(r, v));
    return { x: clamp(p.x + p.vx * seconds, this.arena.width), y: clamp(p.y + p.vy * seconds, this.arena.height) };
  }
}
