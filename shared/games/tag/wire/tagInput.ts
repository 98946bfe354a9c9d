import { z } from 'zod';
import { isInputSequence, MAX_INPUT_SEQUENCE } from '../../../game/gameProtocol';
import type { GameInputCodec } from '../../gameDefinition';
import { NEUTRAL_INPUT } from '../input';
import type { PlayerInput } from '../types';

/** One tag input on the wire: `[sequence, moveX, moveY, tag (0|1)]`. */
export type InputTuple = readonly [sequence: number, moveX: number, moveY: number, tag: 0 | 1];

const sequenceSchema = z.number().int().min(1).max(MAX_INPUT_SEQUENCE);

/** One tick of the local player's controls, as ClientView.advance() produced it. */
export const tagInputSchema = z.strictObject({
  sequence: sequenceSchema,
  moveX: z.number().min(-1).max(1),
  moveY: z.number().min(-1).max(1),
  tag: z.boolean(),
});

/** One input as the host accepts it from the network (the axes are normalised when simulated). */
export const inputTupleSchema = z.tuple([
  sequenceSchema,
  z.number(),
  z.number(),
  z.union([z.literal(0), z.literal(1)]),
]);

/** {@link inputTupleSchema}'s decision by hand (a fresh tuple, or undefined): the host checks one per input. */
export function readInputTuple(value: unknown): InputTuple | undefined {
  if (!Array.isArray(value) || value.length !== 4) return undefined;
  // Indexes, not destructuring: the host runs this for every redundant copy of every guest's input.
  const tuple = value as unknown[];
  const sequence = tuple[0];
  const moveX = tuple[1];
  const moveY = tuple[2];
  const tag = tuple[3];
  if (!isInputSequence(sequence) || !isFiniteNumber(moveX) || !isFiniteNumber(moveY)) return undefined;
  return tag === 0 || tag === 1 ? [sequence, moveX, moveY, tag] : undefined;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** An input as a wire tuple. */
export function toInputTuple(input: PlayerInput): InputTuple {
  return [input.sequence, input.moveX, input.moveY, input.tag ? 1 : 0];
}

/** A wire tuple as an input. */
export function fromInputTuple(tuple: InputTuple): PlayerInput {
  return { sequence: tuple[0], moveX: tuple[1], moveY: tuple[2], tag: tuple[3] === 1 };
}

/**
 * Tag's inputs for the generic host: a starved tick repeats the last movement without a tag (a tag is a press, not
 * a hold), and a tag on an input skipped or dropped unapplied is carried to the next one applied.
 */
export const tagInputCodec: GameInputCodec<PlayerInput, InputTuple> = {
  schema: tagInputSchema,
  wireSchema: inputTupleSchema,
  readWire: readInputTuple,
  toWire: toInputTuple,
  fromWire: fromInputTuple,
  neutral: NEUTRAL_INPUT,
  repeat: (last) => ({ ...last, tag: false }),
  carry: (from, into) => (from.tag && !into.tag ? { ...into, tag: true } : into),
};
