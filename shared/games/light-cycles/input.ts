import { z } from 'zod';
import { isInputSequence, MAX_INPUT_SEQUENCE } from '../../game/gameProtocol';
import type { GameInputCodec } from '../gameDefinition';
import { isHeading } from './rules';
import type { CycleInput } from './types';

/** One input on the wire: `[sequence, turn]`, the turn a heading 0–3 or -1 for none. */
export type CycleInputTuple = readonly [sequence: number, turn: number];

const sequence = z.number().int().min(1).max(MAX_INPUT_SEQUENCE);
const turn = z.union([z.literal(-1), z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);

/** What a rider without input does: rides on. */
export const NO_TURN: CycleInput = { sequence: 0, turn: -1 };

/** {@link cycleInputCodec}'s wire check by hand (a fresh tuple, or undefined): the host checks every input. */
export function readCycleInput(value: unknown): CycleInputTuple | undefined {
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const s: unknown = value[0];
  const t: unknown = value[1];
  return isInputSequence(s) && (t === -1 || isHeading(t)) ? [s, t] : undefined;
}

/**
 * Light cycles' inputs: a turn is a press, so a starved tick repeats none, and a turn on an input skipped or dropped
 * unapplied is carried to the next one applied (unless that one turns itself).
 */
export const cycleInputCodec: GameInputCodec<CycleInput, CycleInputTuple> = {
  schema: z.strictObject({ sequence, turn }),
  wireSchema: z.tuple([sequence, turn]),
  readWire: readCycleInput,
  toWire: (input) => [input.sequence, input.turn],
  fromWire: ([s, t]) => ({ sequence: s, turn: t === -1 || isHeading(t) ? t : -1 }),
  neutral: NO_TURN,
  repeat: (last) => (last.turn === -1 ? last : { ...last, turn: -1 }),
  carry: (from, into) => (from.turn !== -1 && into.turn === -1 ? { ...into, turn: from.turn } : into),
};
