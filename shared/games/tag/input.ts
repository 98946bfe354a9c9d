import type { PlayerInput } from './types';

/** What a player without an input this tick does: nothing (slows to a stop, no tag). */
export const NEUTRAL_INPUT: PlayerInput = { sequence: 0, moveX: 0, moveY: 0, tag: false };

function axis(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 0;
  return Math.min(1, Math.max(-1, value));
}

/**
 * Makes any input safe to simulate: non-finite axes become 0, axes are clamped to −1..1, a move vector longer than 1
 * is scaled to length 1 (no faster diagonals), and `tag` is true only if it is exactly `true`.
 */
export function normalizeInput(input: PlayerInput): PlayerInput {
  let moveX = axis(input.moveX);
  let moveY = axis(input.moveY);
  const lengthSquared = moveX * moveX + moveY * moveY;
  if (lengthSquared > 1) {
    const length = Math.sqrt(lengthSquared);
    moveX /= length;
    moveY /= length;
  }
  return { sequence: input.sequence, moveX, moveY, tag: input.tag === true };
}
