import { clampToArena, resolveCircleRect, type MovingCircle } from './collision';
import { normalizeInput } from './input';
import { RULES } from './rules';
import type { Arena, PlayerBody, PlayerInput } from './types';

/** Velocity this close to the target snaps onto it, so players reach exactly top speed or exactly 0, not a tail. */
const SETTLE_SPEED = 0.01;

/** The longest distance moved between collision checks, so a fast player cannot tunnel through a thin wall. */
const MAX_SUBSTEP_TRAVEL = RULES.playerRadius / 2;

/** Throws unless dt is a finite number >= 0. */
export function assertDt(dt: number): void {
  if (typeof dt !== 'number' || !Number.isFinite(dt) || dt < 0) {
    throw new RangeError(`dt must be a finite number >= 0, got ${String(dt)}`);
  }
}

/**
 * Moves one player for `dt` seconds (capped at RULES.maxDt) under `input`: velocity eases towards the input's
 * target velocity, then the circle travels in small substeps, sliding along obstacles and arena walls.
 * Deterministic (only +, −, ×, ÷, sqrt), so the host and a predicting client compute identical results.
 * Returns a new body of the same shape; other fields are copied unchanged.
 */
export function applyMove<B extends PlayerBody>(body: B, input: PlayerInput, dt: number, arena: Arena): B {
  assertDt(dt);
  const h = Math.min(dt, RULES.maxDt);
  const move = normalizeInput(input);
  const speed = RULES.maxSpeed * (body.it ? RULES.itSpeedMultiplier : 1);
  const response = Math.min(1, RULES.responsiveness * h);
  const targetVx = move.moveX * speed;
  const targetVy = move.moveY * speed;
  const c: MovingCircle = {
    x: body.x,
    y: body.y,
    vx: body.vx + (targetVx - body.vx) * response,
    vy: body.vy + (targetVy - body.vy) * response,
  };
  if (Math.abs(targetVx - c.vx) < SETTLE_SPEED) c.vx = targetVx;
  if (Math.abs(targetVy - c.vy) < SETTLE_SPEED) c.vy = targetVy;
  const travel = Math.sqrt(c.vx * c.vx + c.vy * c.vy) * h;
  const substeps = Math.max(1, Math.ceil(travel / MAX_SUBSTEP_TRAVEL));
  const sub = h / substeps;
  for (let i = 0; i < substeps; i += 1) {
    c.x += c.vx * sub;
    c.y += c.vy * sub;
    for (const obstacle of arena.obstacles) resolveCircleRect(c, RULES.playerRadius, obstacle);
    clampToArena(c, RULES.playerRadius, arena);
  }
  return { ...body, x: c.x, y: c.y, vx: c.vx, vy: c.vy };
}
