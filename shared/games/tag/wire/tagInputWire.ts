import { arrayOf, FieldType } from '../../../codec/fieldTypes';
import { ownKeyCount } from '../../../codec/ownKeyCount';
import type { WireFormat } from '../../../codec/wireFormat';

/** `game.input` with tag's input tuples `[sequence, moveX, moveY, 0|1]`: the guest's message every tick. */
const inputFields = {
  g: FieldType.u16,
  d: FieldType.f64,
  i: arrayOf({ s: FieldType.u32, x: FieldType.f64, y: FieldType.f64, t: FieldType.bool }),
} as const;

interface InputStruct {
  g: number;
  d: number;
  i: { s: number; x: number; y: number; t: boolean }[];
}

function isWhole(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

function isFinite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function toStruct(payload: unknown): InputStruct | undefined {
  if (typeof payload !== 'object' || payload === null || ownKeyCount(payload) !== 3) return undefined;
  const { g, d, i } = payload as Record<string, unknown>;
  if (!isWhole(g, 0xffff) || !isFinite(d) || !Array.isArray(i)) return undefined;
  const inputs = new Array<InputStruct['i'][number]>(i.length);
  for (let k = 0; k < i.length; k++) {
    const tuple: unknown = i[k];
    if (!Array.isArray(tuple) || tuple.length !== 4) return undefined;
    // Indexes, not destructuring (an iterator per tuple): this runs for every input of every message.
    const s = (tuple as unknown[])[0];
    const x = (tuple as unknown[])[1];
    const y = (tuple as unknown[])[2];
    const t = (tuple as unknown[])[3];
    if (!isWhole(s, 0xffffffff) || !isFinite(x) || !isFinite(y) || (t !== 0 && t !== 1)) return undefined;
    // + 0: JSON turns -0 into 0, and the receiver must see what JSON would have delivered.
    inputs[k] = { s, x: x + 0, y: y + 0, t: t === 1 };
  }
  return { g, d: d + 0, i: inputs };
}

function fromStruct(struct: Record<string, unknown>): Record<string, unknown> {
  const { g, d, i } = struct as unknown as InputStruct;
  const tuples = new Array<[number, number, number, 0 | 1]>(i.length);
  for (let k = 0; k < i.length; k++) {
    const input = i[k] as InputStruct['i'][number];
    tuples[k] = [input.s, input.x, input.y, input.t ? 1 : 0];
  }
  return { g, d, i: tuples };
}

/** Tag's `game.input` binary: 12 bytes plus 21 per input (117 for the usual five, where compact JSON takes ~290). */
export const tagInputWire: WireFormat = { fields: inputFields, toStruct, fromStruct };
