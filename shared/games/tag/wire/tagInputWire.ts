import { arrayOfTuples, FieldType } from '../../../codec/fieldTypes';
import { ownKeyCount } from '../../../codec/ownKeyCount';
import type { WireFormat } from '../../../codec/wireFormat';

/** `game.input` with tag's input tuples `[sequence, moveX, moveY, 0|1]` as they are: the guest's message every tick. */
const inputFields = {
  g: FieldType.u16,
  d: FieldType.f64,
  i: arrayOfTuples(FieldType.u32, FieldType.f64, FieldType.f64, FieldType.u8),
} as const;

function isWhole(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

function isFinite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** JSON turns -0 into 0, and the receiver must see what JSON would have delivered: the rare -0 is copied out. */
function withoutNegativeZero(payload: { g: number; d: number; i: unknown[][] }): object {
  return {
    g: payload.g,
    d: payload.d + 0,
    i: payload.i.map((t) => [t[0], (t[1] as number) + 0, (t[2] as number) + 0, t[3]]),
  };
}

/** The payload itself when the schema carries it exactly (checks only, no copy), else undefined (JSON carries it). */
function toStruct(payload: unknown): object | undefined {
  if (typeof payload !== 'object' || payload === null || ownKeyCount(payload) !== 3) return undefined;
  const { g, d, i } = payload as Record<string, unknown>;
  if (!isWhole(g, 0xffff) || !isFinite(d) || !Array.isArray(i)) return undefined;
  let negativeZero = Object.is(d, -0);
  for (let k = 0; k < i.length; k++) {
    const tuple: unknown = i[k];
    if (!Array.isArray(tuple) || tuple.length !== 4) return undefined;
    // Indexes, not destructuring (an iterator per tuple): this runs for every input of every message.
    const x = (tuple as unknown[])[1];
    const y = (tuple as unknown[])[2];
    const t = (tuple as unknown[])[3];
    if (!isWhole((tuple as unknown[])[0], 0xffffffff) || !isFinite(x) || !isFinite(y) || (t !== 0 && t !== 1)) {
      return undefined;
    }
    if (Object.is(x, -0) || Object.is(y, -0)) negativeZero = true;
  }
  return negativeZero ? withoutNegativeZero(payload as { g: number; d: number; i: unknown[][] }) : payload;
}

/** The decoded payload as it is, once its tag bytes are 0 or 1 (only bodies this side could have encoded decode). */
function fromStruct(struct: Record<string, unknown>): Record<string, unknown> {
  for (const tuple of struct.i as number[][])
    if ((tuple[3] as number) > 1) throw new RangeError(`tag byte ${tuple[3]}`);
  return struct;
}

/** Tag's `game.input` binary: 12 bytes plus 21 per input (117 for the usual five, where compact JSON takes ~290). */
export const tagInputWire: WireFormat = { fields: inputFields, toStruct, fromStruct };
