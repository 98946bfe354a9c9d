import { describe, expect, it } from 'vitest';
import { MAX_GAME_ID, MAX_INPUT_SEQUENCE, MAX_INPUTS_PER_MESSAGE } from '../../../shared/game/gameProtocol';
import { inputPayloadParser, inputPayloadSchema } from '../../../shared/game/gameSchemas';
import { inputTupleSchema, readInputTuple, tagInputCodec } from '../../../shared/games/tag/wire/tagInput';
import { SeededRandom } from '../../../shared/random/prng';

// The host validates inputs by hand (readWire) instead of with zod; both must make the same decision on anything
// a peer can send, and give the same value back.

const rng = new SeededRandom(20);
const pick = <T>(xs: readonly T[]): T => xs[rng.int(xs.length)]!;

/** Numbers at and around every bound the schemas name, plus the non-finite ones. */
const NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  -0.5,
  2,
  1e300,
  -1e300,
  NaN,
  Infinity,
  -Infinity,
  MAX_INPUT_SEQUENCE,
  MAX_INPUT_SEQUENCE + 1,
  MAX_GAME_ID,
  MAX_GAME_ID + 1,
  1.0000001,
  Number.MAX_SAFE_INTEGER + 2,
];
const OTHERS = [undefined, null, '1', true, false, {}, [], [1], { 0: 1, length: 4 }];

function anyValue(depth = 0): unknown {
  const r = rng.next();
  if (r < 0.5) return pick(NUMBERS);
  if (r < 0.8 || depth > 1) return pick(OTHERS);
  return Array.from({ length: rng.int(6) }, () => anyValue(depth + 1));
}

/** A tuple that is mostly well-formed, with one slot (or the length) sometimes spoiled. */
function tupleish(): unknown {
  const tuple: unknown[] = [1 + rng.int(MAX_INPUT_SEQUENCE), rng.range(-3, 3), rng.range(-3, 3), rng.int(2)];
  const spoil = rng.int(8);
  if (spoil < 4) tuple[spoil] = anyValue();
  else if (spoil === 4) tuple.push(0);
  else if (spoil === 5) tuple.pop();
  return rng.next() < 0.1 ? anyValue() : tuple;
}

function payloadish(): unknown {
  const count = pick([0, 1, 2, 3, MAX_INPUTS_PER_MESSAGE, MAX_INPUTS_PER_MESSAGE + 1]);
  const payload: Record<string, unknown> = {
    g: rng.next() < 0.8 ? 1 + rng.int(MAX_GAME_ID) : anyValue(),
    d: rng.next() < 0.8 ? rng.range(0, 0.3) : anyValue(),
    i:
      rng.next() < 0.9 ? Array.from({ length: count }, () => (rng.next() < 0.9 ? tupleish() : anyValue())) : anyValue(),
  };
  if (rng.next() < 0.1) payload.extra = 'ignored';
  if (rng.next() < 0.05) delete payload[pick(['g', 'd', 'i'])];
  return rng.next() < 0.05 ? anyValue() : payload;
}

describe('the hand-written input validation agrees with the zod schemas', () => {
  it('readInputTuple accepts exactly what inputTupleSchema accepts, returning the same fresh tuple', () => {
    let accepted = 0;
    for (let n = 0; n < 20_000; n++) {
      const value = tupleish();
      const zod = inputTupleSchema.safeParse(value);
      const mine = readInputTuple(value);
      expect(mine !== undefined, JSON.stringify(value)).toBe(zod.success);
      if (zod.success) {
        accepted++;
        expect(mine).toEqual(zod.data);
        expect(mine).not.toBe(value);
      }
    }
    // Both outcomes were exercised often.
    expect(accepted).toBeGreaterThan(2_000);
    expect(accepted).toBeLessThan(18_000);
  });

  it('inputPayloadParser (with readWire) decides and returns as the zod payload schema does', () => {
    const fast = inputPayloadParser(tagInputCodec);
    const schema = inputPayloadSchema(tagInputCodec);
    let accepted = 0;
    for (let n = 0; n < 10_000; n++) {
      const value = payloadish();
      const zod = schema.safeParse(value);
      const mine = fast(value);
      expect(mine !== undefined, JSON.stringify(value)).toBe(zod.success);
      if (zod.success) {
        accepted++;
        expect(mine).toEqual(zod.data);
      }
    }
    expect(accepted).toBeGreaterThan(300);
    expect(accepted).toBeLessThan(9_000);
  });

  it('a codec without readWire still goes through its zod schema', () => {
    const { readWire: _unused, ...zodOnly } = tagInputCodec;
    const parse = inputPayloadParser(zodOnly);
    expect(parse({ g: 1, d: 0.1, i: [[1, 0.5, -0.5, 1]] })).toEqual({ g: 1, d: 0.1, i: [[1, 0.5, -0.5, 1]] });
    expect(parse({ g: 1, d: 0.1, i: [[0, 0.5, -0.5, 1]] })).toBeUndefined();
  });
});
