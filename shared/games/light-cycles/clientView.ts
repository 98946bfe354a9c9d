import { GAME_TICK_DT } from '../../game/gameProtocol';
import { SnapshotInterpolator } from '../../net/snapshotInterpolator';
import {
  interpolationDelayOf,
  type InterpolationDelay,
  type InterpolationDelaySetting,
} from '../../game/adaptiveInterpolationDelay';
import type { GameView, PlayerId } from '../gameDefinition';
import { behind, predictCycle } from './prediction';
import { RULES } from './rules';
import { decodeCycles, type CyclesSnapshot, type DecodedCycle } from './snapshot';
import type { Cell, CycleInput, GamePhase, Heading } from './types';

/** The controls of one frame: the heading asked for, or -1. */
export interface CyclesControls {
  readonly turn: Heading | -1;
}

/** One cycle to draw. */
export interface ViewCycle {
  readonly id: PlayerId;
  /** The head, in cells (fractional while it rides between two). */
  readonly x: number;
  readonly y: number;
  readonly heading: Heading;
  readonly alive: boolean;
  readonly winner: boolean;
  readonly self: boolean;
  readonly survived: number;
  readonly cells: number;
  /** The trail as runs of known corners, oldest first; the last run ends at the head. */
  readonly trail: readonly (readonly Cell[])[];
}

/** Everything to draw at one moment. */
export interface CyclesFrame {
  readonly tick: number | undefined;
  readonly phase: GamePhase;
  readonly timeRemaining: number;
  readonly countdown: number;
  readonly width: number;
  readonly height: number;
  readonly cycles: readonly ViewCycle[];
}

type Heads = Record<PlayerId, { x: number; y: number }>;

/** Most local ticks one advance() runs after a stall; the rest is skipped (the host repeats the last input). */
const MAX_CATCH_UP = 8;

/** Where a cycle's head is drawn from a snapshot: between its previous cell and this one by the move's progress. */
function drawnHead(cycle: DecodedCycle, sinceMove: number): { x: number; y: number } {
  if (!cycle.alive || cycle.cells === 0) return { x: cycle.x, y: cycle.y };
  const from = behind(cycle, cycle.heading);
  const progress = sinceMove / RULES.moveTicks;
  return { x: from.x + (cycle.x - from.x) * progress, y: from.y + (cycle.y - from.y) * progress };
}

/**
 * A light-cycles client, pure and with time injected (seconds): the local rider predicted from its unacknowledged
 * inputs (predictCycle, replayed from every newest snapshot), the others interpolated `interpolationDelay` in the past
 * on the host's timeline; every cycle's corners collected across snapshots (each repeats the last few), so a few lost
 * snapshots leave no gap in a trail.
 */
export class CyclesView implements GameView<CycleInput, CyclesSnapshot, CyclesControls, CyclesFrame> {
  private readonly delay: InterpolationDelay;
  private readonly heads: SnapshotInterpolator<Heads>;
  private readonly corners = new Map<PlayerId, (Cell | undefined)[]>();
  private clock = 0;
  private latest: CyclesSnapshot | undefined;
  private decoded: DecodedCycle[] = [];
  private pending: CycleInput[] = [];
  private sequence = 0;
  private ticked: number | undefined;
  /** A turn pressed in a frame with no tick due: kept for the next tick, so a press is never lost. */
  private latched: CycleInput['turn'] = -1;

  constructor(
    private readonly playerId: PlayerId,
    interpolationDelay: InterpolationDelaySetting,
    private readonly size: { readonly width: number; readonly height: number } = RULES,
  ) {
    this.delay = interpolationDelayOf(interpolationDelay);
    this.heads = new SnapshotInterpolator<Heads>({ now: () => this.clock, capacity: 32 });
  }

  /** How far in the past the other riders are drawn now, seconds. */
  get interpolationDelay(): number {
    return this.delay.at(this.clock);
  }

  /**
   * The local ticks due by `now` at 60 Hz, each an input (the turn on the first, or on the next tick when none is due
   * yet: displays draw faster than 60 Hz); none before the rider is seen or after the round.
   */
  advance(now: number, controls: CyclesControls): CycleInput[] {
    this.clock = now;
    // Nothing to steer before the rider is seen or once the round is over (the host takes no more inputs).
    if (this.latest?.ph !== 'playing' || !this.decoded.some((c) => c.id === this.playerId)) {
      this.latched = -1;
      return [];
    }
    if (controls.turn !== -1) this.latched = controls.turn;
    if (this.ticked === undefined) this.ticked = now - GAME_TICK_DT;
    const due = Math.floor((now - this.ticked) / GAME_TICK_DT + 1e-9);
    if (due <= 0) return [];
    const turn = this.latched;
    this.latched = -1;
    this.ticked = due > MAX_CATCH_UP ? now : this.ticked + due * GAME_TICK_DT;
    const inputs = Array.from({ length: Math.min(due, MAX_CATCH_UP) }, (_, i): CycleInput => {
      this.sequence += 1;
      return { sequence: this.sequence, turn: i === 0 ? turn : -1 };
    });
    this.pending.push(...inputs);
    return inputs;
  }

  /** Takes a snapshot received at `now`: the newest one rules prediction; every one adds corners and heads. */
  applySnapshot(snapshot: CyclesSnapshot, now: number): void {
    this.clock = now;
    const cycles = decodeCycles(snapshot);
    for (const cycle of cycles) {
      const known = this.corners.get(cycle.id) ?? [];
      const first = cycle.corners - cycle.recent.length;
      cycle.recent.forEach((corner, i) => (known[first + i] = corner));
      this.corners.set(cycle.id, known);
    }
    const heads: Heads = {};
    for (const c of cycles) if (c.id !== this.playerId) heads[c.id] = drawnHead(c, snapshot.m);
    this.heads.add(heads, { serverTime: snapshot.t });
    this.delay.observe(snapshot.t);
    if (this.latest !== undefined && snapshot.k <= this.latest.k) return;
    this.latest = snapshot;
    this.decoded = cycles;
    const ack = cycles.find((c) => c.id === this.playerId)?.ack ?? 0;
    this.pending = this.pending.filter((input) => input.sequence > ack);
  }

  /** Inputs sent but not yet acknowledged by the host. */
  get pendingInputs(): number {
    return this.pending.length;
  }

  /** What to draw at `now`. */
  sample(now: number): CyclesFrame {
    this.clock = now;
    const latest = this.latest;
    const renderTime = now - this.delay.at(now);
    const past = this.heads.sample(renderTime) ?? {};
    const offset = this.heads.clockOffset;
    // Past the newest snapshot the heads stand still at it; the delay grows so that stays rare.
    if (latest !== undefined && offset !== undefined) this.delay.drew(now - offset - latest.t, now);
    const taken = this.takenCells();
    const cycles = this.decoded.map((c): ViewCycle => {
      const base = { id: c.id, alive: c.alive, winner: c.winner, survived: c.survived, cells: c.cells };
      const corners = this.corners.get(c.id) ?? [];
      if (c.id === this.playerId && latest?.ph === 'playing') {
        const predicted = predictCycle(
          {
            self: c,
            sinceMove: latest.m,
            countdown: latest.c ?? 0,
            ...this.size,
            blocked: (cell) => taken.has(key(cell)),
          },
          this.pending,
        );
        const trail = runs([...corners, ...predicted.corners], predicted);
        return {
          ...base,
          x: predicted.x,
          y: predicted.y,
          heading: predicted.heading,
          alive: predicted.alive && c.alive,
          self: true,
          trail,
        };
      }
      const head = c.alive ? (past[c.id] ?? drawnHead(c, latest?.m ?? 0)) : { x: c.x, y: c.y };
      return { ...base, ...head, heading: c.heading, self: c.id === this.playerId, trail: runs(corners, head) };
    });
    return {
      tick: latest?.k,
      phase: latest?.ph ?? 'waiting',
      timeRemaining: latest?.r ?? 0,
      countdown: latest?.c ?? 0,
      ...this.size,
      cycles,
    };
  }

  /** Every cell of every known trail (for the prediction's stop at a trail). */
  private takenCells(): Set<number> {
    const taken = new Set<number>();
    for (const c of this.decoded) {
      for (const run of runs(this.corners.get(c.id) ?? [], c)) {
        for (let i = 1; i < run.length; i++) for (const cell of segment(run[i - 1]!, run[i]!)) taken.add(key(cell));
        if (run.length === 1) taken.add(key(run[0]!));
      }
    }
    return taken;
  }
}

function key(cell: Cell): number {
  return cell.y * 256 + cell.x;
}

/** The cells from `a` to `b` (one straight line), both included. */
function segment(a: Cell, b: Cell): Cell[] {
  const steps = Math.max(Math.abs(b.x - a.x), Math.abs(b.y - a.y));
  const dx = Math.sign(b.x - a.x);
  const dy = Math.sign(b.y - a.y);
  return Array.from({ length: steps + 1 }, (_, i) => ({ x: a.x + dx * i, y: a.y + dy * i }));
}

/** Known corners as unbroken runs (a gap where a corner was never seen), the last run ending at `head`. */
function runs(corners: readonly (Cell | undefined)[], head: { x: number; y: number }): Cell[][] {
  const out: Cell[][] = [];
  let run: Cell[] = [];
  for (let i = 0; i < corners.length; i++) {
    const corner = corners[i];
    if (corner === undefined) {
      if (run.length > 0) out.push(run);
      run = [];
    } else run.push(corner);
  }
  run.push({ x: head.x, y: head.y });
  out.push(run);
  return out;
}
