import { compactJsonSerializer, SerializationError, type DecodedMessage, type Serializer } from '../v1/serialization';
import { toSerializationError } from './codecFailure';
import type { CompiledCodec } from './compileCodec';
import type { Schema } from './defineSchema';
import { WriterSlot } from './writerSlot';

/** Body byte 0: which layout follows. */
export const BinaryTag = {
  /** A compact JSON `{"type","payload"}` envelope, for types without a schema. */
  JSON: 0,
  /** Tags 1..MAX_SCHEMAS are registered types, numbered in sorted type-name order. */
  MAX_SCHEMAS: 255,
} as const;

/** A serializer name: what the native offer carries, so both ends can check they speak the same schemas. */
const NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** Options of {@link binarySerializer}. */
export interface BinarySerializerOptions {
  /** Message type → schema of its payload; every other type travels as JSON. */
  schemas: Readonly<Record<string, Schema>>;
  /** 1-64 of `A-Z a-z 0-9 . _ -`, not "json" (the name both ends always have); change it when a schema changes. */
  name: string;
}

/** A {@link Serializer} that says which codec it is. */
export interface NamedSerializer extends Serializer {
  readonly name: string;
}

/**
 * Schema-encoded bodies for registered types, chosen per message type: `tag ‖ payload`, where tag 1..n is the type's
 * rank in code-unit order of the names (so both ends agree without sending names) and tag 0 is a JSON fallback.
 */
export function binarySerializer(options: BinarySerializerOptions): NamedSerializer {
  const { name } = options;
  if (!NAME_PATTERN.test(name) || name === 'json')
    throw new TypeError(`invalid serializer name ${JSON.stringify(name)}`);
  const types = Object.keys(options.schemas).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (types.length > BinaryTag.MAX_SCHEMAS) throw new TypeError(`at most ${BinaryTag.MAX_SCHEMAS} schemas`);
  const byType = new Map<string, { tag: number; codec: CompiledCodec }>();
  const byTag: (CompiledCodec | undefined)[] = [undefined];
  types.forEach((type, index) => {
    const codec = (options.schemas[type] as Schema | undefined)?.codec;
    if (codec === undefined) throw new TypeError(`"${type}" is not a schema from defineSchema`);
    byType.set(type, { tag: index + 1, codec });
    byTag.push(codec);
  });
  const slot = new WriterSlot();

  function serialize(type: string, payload: unknown): Uint8Array {
    const entry = byType.get(type);
    if (entry === undefined) return jsonFallback(type, payload);
    const writer = slot.acquire();
    try {
      writer.ensure(1);
      writer.u8(entry.tag);
      entry.codec.write(payload, writer);
      return writer.finish();
    } catch (error) {
      throw toSerializationError(error, `payload of "${type}" does not fit its schema`);
    } finally {
      slot.release(writer);
    }
  }

  function deserialize(body: Uint8Array): DecodedMessage {
    if (body.length === 0) throw new SerializationError('empty body');
    const tag = body[0] as number;
    if (tag === BinaryTag.JSON) {
      const message = compactJsonSerializer.deserialize(body.subarray(1));
      // A schema type must arrive schema-encoded, so receivers can rely on its shape.
      if (byType.has(message.type)) throw new SerializationError(`"${message.type}" arrived as JSON but has a schema`);
      return message;
    }
    const codec = byTag[tag];
    if (codec === undefined) throw new SerializationError(`unknown body tag ${tag}`);
    try {
      return { type: types[tag - 1] as string, payload: codec.read(body, 1) };
    } catch (error) {
      throw toSerializationError(error, `bad "${types[tag - 1]}" body`);
    }
  }

  return { name, serialize, deserialize };
}

function jsonFallback(type: string, payload: unknown): Uint8Array {
  const json = compactJsonSerializer.serialize(type, payload);
  const body = new Uint8Array(1 + json.length);
  body[0] = BinaryTag.JSON;
  body.set(json, 1);
  return body;
}
