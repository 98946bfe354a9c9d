import { describe, expect, it } from 'vitest';
import { binarySerializer } from '../../../../main/net/codec';
import { SerializationError, type Serializer } from '../../../../main/net/v1/serialization';
import { entitySnapshot, entitySnapshotSchema } from '../../../support/entitySnapshot';
import { seededRandom } from '../../../support/seededRandom';
import { allTypesSchema, randomAllTypes } from './allTypesSchema';

const GARBAGE_INPUTS = 10_000;
const MUTATED_INPUTS = 5_000;
const VALID_VALUES = 500;

/** The serializer under test: the all-types schema and the entity snapshot. */
const serializer: Serializer = binarySerializer({
  schemas: { all: allTypesSchema, snapshot: entitySnapshotSchema },
  name: 'fuzz',
});

type Outcome = { ok: true; value: unknown } | { ok: false; message: string };

/** Decodes `body`, failing the test on anything thrown but a SerializationError. */
function outcome(serializer: Serializer, body: Uint8Array): Outcome {
  try {
    return { ok: true, value: serializer.deserialize(body) };
  } catch (error) {
    if (!(error instanceof SerializationError))
      throw new Error(`non-SerializationError for [${body}]`, { cause: error });
    return { ok: false, message: error.message };
  }
}

/**
 * The decoder must throw nothing but SerializationError, name where a schema body failed, and accept only canonical
 * bodies: a schema body that decodes re-encodes to exactly its bytes.
 */
function check(body: Uint8Array): boolean {
  const result = outcome(serializer, body);
  if (!result.ok) {
    if (body[0] === 1 || body[0] === 2) expect(result.message).toMatch(/^bad "(all|snapshot)" body( at \S+)?: /);
    return false;
  }
  const { type, payload } = result.value as { type: string; payload: unknown };
  if (body[0] !== 0) expect(serializer.serialize(type, payload)).toEqual(body);
  return true;
}

describe('codec fuzz (seeded, bounded)', () => {
  it(`random garbage: ${GARBAGE_INPUTS} bodies`, () => {
    const random = seededRandom(0xc0dec);
    let accepted = 0;
    for (let n = 0; n < GARBAGE_INPUTS; n++) {
      const length = Math.floor(random() * 48);
      const body = Uint8Array.from({ length }, () => Math.floor(random() * 256));
      // Mostly valid tags (0 = JSON, 1 = all, 2 = snapshot) so the schema decoders see the rest.
      if (length > 0 && random() < 0.9) body[0] = Math.floor(random() * 3);
      if (check(body)) accepted++;
    }
    expect(accepted).toBeLessThan(GARBAGE_INPUTS);
  });

  it(`mutated valid bodies: ${MUTATED_INPUTS} bodies`, () => {
    const random = seededRandom(42);
    const valid = [
      serializer.serialize('snapshot', entitySnapshot(3)),
      ...Array.from({ length: 20 }, () => serializer.serialize('all', randomAllTypes(random))),
    ];
    let accepted = 0;
    for (let n = 0; n < MUTATED_INPUTS; n++) {
      const source = valid[n % valid.length]!;
      const body = Uint8Array.from(source);
      const flips = 1 + Math.floor(random() * 3);
      for (let k = 0; k < flips; k++) body[1 + Math.floor(random() * (body.length - 1))] = Math.floor(random() * 256);
      const cut = random() < 0.3 ? Math.floor(random() * body.length) : body.length;
      if (check(body.subarray(0, cut))) accepted++;
    }
    // Flipped float bytes usually still decode: both outcomes must be exercised.
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(MUTATED_INPUTS);
  });

  it(`random valid values: ${VALID_VALUES} round trips`, () => {
    const random = seededRandom(7);
    for (let n = 0; n < VALID_VALUES; n++) {
      const value = randomAllTypes(random);
      const body = serializer.serialize('all', value);
      expect(serializer.deserialize(body)).toEqual({ type: 'all', payload: value });
    }
  });
});
