import { PredictionBuffer } from '../../../net/predictionBuffer';
import { GAME_TICK_DT } from '../../../game/gameProtocol';
import { normalizeInput } from '../input';
import { applyMove } from '../movement';
import type { DecodedSnapshotPlayer } from '../wire/snapshot';
import type { Arena, PlayerBody, PlayerInput } from '../types';

/** What the local player is pressing. `tag` is latched until the next local tick, so a short press is never lost. */
export interface ClientControls {
  readonly moveX: number;
  readonly moveY: number;
  readonly tag: boolean;
}

/** Settings of {@link LocalPrediction} (validated by ClientView). */
export interface LocalPredictionOptions {
  readonly arena: Arena;
  /** A prediction error is blended out over about this long (to 5%), seconds. */
  readonly correctionTime: number;
  /** A prediction error longer than this (arena units) is snapped, not blended. */
  readonly snapDistance: number;
  /** Most local ticks one advance() runs after a stall. */
  readonly maxCatchUp: number;
}

/** Counters of the local player's prediction. */
export interface PredictionStats {
  /** Reconciliations that moved the prediction (blended out). */
  corrections: number;
  /** Corrections above snapDistance (snapped). */
  snaps: number;
  /** Largest correction seen, arena units. */
  largestCorrection: number;
  /** Snapshots too old to reconcile against (out of order). */
  staleSnapshots: number;
}

/**
 * Ticks should come due at most this long after a frame (seconds): a tick due just after the previous frame is drawn
 * nearly in full by the next one, so a key pressed shows on the first frame that reads it. Above display jitter.
 */
const PHASE_MARGIN = 0.004;
/** How far the tick clock moves later per frame while it is out of phase (3% of a tick: the motion slows a hair). */
const PHASE_SLEW = 0.0005;

/** Rounds an axis to 1/1000 so the value sent is exactly the value predicted with (JSON keeps it exact). */
function quantize(value: number): number {
  return Math.round(value * 1000) / 1000 + 0;
}

/**
 * The local player, predicted: fixed 60 Hz ticks turn controls into numbered inputs applied at once with the shared
 * movement rules; each authoritative snapshot replays the unacknowledged ones (PredictionBuffer), and any difference
 * becomes an offset that decays exponentially (to 5% over correctionTime) rather than a visible jump.
 */
export class LocalPrediction {
  readonly counters: PredictionStats = { corrections: 0, snaps: 0, largestCorrection: 0, staleSnapshots: 0 };
  private readonly buffer = new PredictionBuffer<PlayerInput, PlayerBody>();
  private readonly applyInput = (body: PlayerBody, input: PlayerInput, dt: number) =>
    applyMove(body, input, dt, this.options.arena);
  private body: PlayerBody | undefined;
  private previous: PlayerBody | undefined;
  private lastTick = -1;
  private nextTickAt = 0;
  private lastFrame: number | undefined;
  private sequence = 0;
  private tagLatched = false;
  private offset = { x: 0, y: 0, at: 0 };

  constructor(private readonly options: LocalPredictionOptions) {}

  /** The raw prediction (no blending), undefined before the first snapshot with the local player. */
  get predicted(): PlayerBody | undefined {
    return this.body;
  }

  /** Inputs not yet acknowledged by the host. */
  get pendingCount(): number {
    return this.buffer.pendingCount;
  }

  /** Runs the ticks due by `now`; returns their inputs. Nothing before the first snapshot. */
  advance(now: number, controls: ClientControls): PlayerInput[] {
    if (controls.tag) this.tagLatched = true;
    const produced: PlayerInput[] = [];
    const firstDue = this.nextTickAt;
    // A nanosecond of slack: a caller stepping exactly tick by tick must not lose a tick to float rounding.
    while (this.body !== undefined && now >= this.nextTickAt - 1e-9 && produced.length < this.options.maxCatchUp) {
      const move = normalizeInput({ sequence: 0, moveX: controls.moveX, moveY: controls.moveY, tag: false });
      this.sequence += 1;
      const input: PlayerInput = {
        sequence: this.sequence,
        moveX: quantize(move.moveX),
        moveY: quantize(move.moveY),
        tag: this.tagLatched,
      };
      this.tagLatched = false;
      this.previous = this.body;
      this.body = this.applyInput(this.body, input, GAME_TICK_DT);
      this.buffer.record({ sequence: input.sequence, input, dt: GAME_TICK_DT, predictedState: this.body });
      this.nextTickAt += GAME_TICK_DT;
      produced.push(input);
    }
    if (now >= this.nextTickAt - 1e-9) this.nextTickAt = now + GAME_TICK_DT; // stalled: skip, do not replay a burst
    this.lockPhase(now, firstDue, produced.length > 0);
    return produced;
  }

  /** Rebases the prediction on the local player's entry of snapshot `tick`, received at `now`. */
  reconcile(own: DecodedSnapshotPlayer, tick: number, now: number): void {
    if (tick <= this.lastTick) {
      this.counters.staleSnapshots += 1;
      return;
    }
    this.lastTick = tick;
    const authoritative: PlayerBody = { x: own.x, y: own.y, vx: own.vx, vy: own.vy, it: own.it };
    if (this.body === undefined || this.previous === undefined) {
      this.body = this.previous = authoritative;
      this.nextTickAt = now;
      return;
    }
    const reconciled = this.buffer.reconcile({
      lastProcessedSequence: own.lastProcessedSequence ?? 0,
      authoritativeState: authoritative,
      applyInput: this.applyInput,
    });
    if (reconciled === undefined) {
      this.counters.staleSnapshots += 1;
      return;
    }
    const dx = this.body.x - reconciled.x;
    const dy = this.body.y - reconciled.y;
    const error = Math.hypot(dx, dy);
    if (error > 1e-6) {
      const carried = this.offsetAt(now);
      const total = { x: carried.x + dx, y: carried.y + dy };
      const snap = Math.hypot(total.x, total.y) > this.options.snapDistance;
      this.offset = snap ? { x: 0, y: 0, at: now } : { ...total, at: now };
      this.counters.corrections += 1;
      if (snap) this.counters.snaps += 1;
      this.counters.largestCorrection = Math.max(this.counters.largestCorrection, error);
    }
    // Shift the render start point along with the prediction, so only the blended offset shows the correction.
    this.previous = { ...this.previous, x: this.previous.x - dx, y: this.previous.y - dy };
    this.body = reconciled;
  }

  /** Where to draw the local player at `now`: between the last two ticks, plus the decaying correction offset. */
  position(now: number): { x: number; y: number } | undefined {
    const body = this.body;
    const previous = this.previous;
    if (body === undefined || previous === undefined) return undefined;
    const alpha = Math.min(1, Math.max(0, 1 - (this.nextTickAt - now) / GAME_TICK_DT));
    const offset = this.offsetAt(now);
    return {
      x: previous.x + (body.x - previous.x) * alpha + offset.x,
      y: previous.y + (body.y - previous.y) * alpha + offset.y,
    };
  }

  /**
   * Keeps the tick clock in phase with the frames. A tick run at a frame is drawn from its due time on, so one due
   * just after the previous frame shows (nearly) a whole tick of the new input at once, while one due just before
   * this frame shows almost none of it until the next: up to a tick (17 ms) of the key-to-pixel time, set by when the
   * first snapshot happened to arrive. So while the first tick a frame runs came due more than PHASE_MARGIN after the
   * previous frame, the clock moves later by PHASE_SLEW per frame until it wraps to just after a frame. Only later:
   * a clock running ahead would send the host more inputs than it ticks, a standing queue; later costs one repeat.
   */
  private lockPhase(now: number, firstDue: number, ran: boolean): void {
    const previous = this.lastFrame;
    this.lastFrame = now;
    if (!ran || previous === undefined || !(now > previous)) return;
    if (firstDue - previous > PHASE_MARGIN) this.nextTickAt += PHASE_SLEW;
  }

  /** The not-yet-blended-out part of past corrections at `now`. */
  private offsetAt(now: number): { x: number; y: number } {
    const k = Math.exp((-3 * Math.max(0, now - this.offset.at)) / this.options.correctionTime);
    return { x: this.offset.x * k, y: this.offset.y * k };
  }
}
