import { describe, expect, it } from 'vitest';
import { binarySerializer, defineSchema } from '../../../../main/net/codec';
import { SerializationError, type Serializer } from '../../../../main/net/v1/serialization';
import { entitySnapshot, entitySnapshotSchema } from '../../../support/entitySnapshot';
import { seededRandom } from '../../../support/seededRandom';
import { allTypesFields, randomAllTypes } from './allTypesSchema';

const GARBAGE_INPUTS = 10_000;
const MUTATED_INPUTS = 5_000;
const VALID_VALUES = 500;

/** The same schemas through generated code and through the reference interpreter. */
function serializers(): [Serializer, Serializer] {
  const build = (codegen: boolean) =>
    binarySerializer({
      schemas: {
        all: defineSchema(allTypesFields, { codegen }),
        snapshot: defineSchema(entitySnapshotSchema.fields, { codegen }),
      },
      name: 'fuzz',
    });
  return [build(true), build(false)];
}

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
 * Both decoders must agree on every input, throw nothing but SerializationError, and accept only canonical bodies:
 * a schema body that decodes re-encodes to exactly its bytes.
 */
function check(generated: Serializer, reference: Serializer, body: Uint8Array): boolean {
  const fast = outcome(generated, body);
  const slow = outcome(reference, body);
  expect(fast).toEqual(slow);
  if (!fast.ok) return false;
  const { type, payload } = fast.value as { type: string; payload: unknown };
  if (body[0] !== 0) expect(generated.serialize(type, payload)).toEqual(body);
  return true;
}

describe('codec fuzz (seeded, bounded)', () => {
  const [generated, reference] = serializers();

  it(`random garbage: ${GARBAGE_INPUTS} bodies`, () => {
    const random = seededRandom(0xc0dec);
    let accepted = 0;
    for (let n = 0; n < GARBAGE_INPUTS; n++) {
      const length = Math.floor(random() * 48);
      const body = Uint8Array.from({ length }, () => Math.floor(random() * 256));
      // Mostly valid tags (0 = JSON, 1 = all, 2 = snapshot) so the schema decoders see the rest.
      if (length > 0 && random() < 0.9) body[0] = Math.floor(random() * 3);
      if (check(generated, reference, body)) accepted++;
    }
    expect(accepted).toBeLessThan(GARBAGE_INPUTS);
  });

  it(`mutated valid bodies: ${MUTATED_INPUTS} bodies`, () => {
    const random = seededRandom(42);
    const valid = [
      generated.serialize('snapshot', entitySnapshot(3)),
      ...Array.from({ length: 20 }, () => generated.serialize('all', randomAllTypes(random))),
    ];
    let accepted = 0;
    for (let n = 0; n < MUTATED_INPUTS; n++) {
      const source = valid[n % valid.length]!;
      const body = Uint8Array.from(source);
      const flips = 1 + Math.floor(random() * 3);
      for (let k = 0; k < flips; k++) body[1 + Math.floor(random() * (body.length - 1))] = Math.floor(random() * 256);
      const cut = random() < 0.3 ? Math.floor(random() * body.length) : body.length;
      if (check(generated, reference, body.subarray(0, cut))) accepted++;
    }
    // Flipped float bytes usually still decode: both outcomes must be exercised.
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(MUTATED_INPUTS);
  });

  it(`random valid values: ${VALID_VALUES} round trips with identical bytes from both encoders`, () => {
    const random = seededRandom(7);
    for (let n = 0; n < VALID_VALUES; n++) {
      const value = randomAllTypes(random);
      const body = generated.serialize('all', value);
      expect(reference.serialize('all', value)).toEqual(body);
      expect(generated.deserialize(body)).toEqual({ type: 'all', payload: value });
    }
  });
});
