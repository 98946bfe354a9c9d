import type { WireFormat } from '../../../../shared/codec/wireFormat';
import { SerializationError, type DecodedMessage } from '../../v1/serialization';
import { binarySerializer, type NamedSerializer } from '../binarySerializer';
import { defineSchema } from '../defineSchema';

/** One binary layout a transport message type may travel in. */
export interface MappedMessage {
  /** The transport message type, e.g. `game.input`. */
  readonly type: string;
  /** The layout's own type name inside the binary serializer (distinct, so JSON fallbacks of `type` stay legal). */
  readonly wireType: string;
  readonly format: WireFormat;
}

/**
 * A body codec that carries each listed message type in the first of its formats that takes the payload exactly
 * (WireFormat.toStruct), and every other type or payload as compact JSON. A type may have several formats (one per
 * game): whichever carried it, the receiver gets what JSON would have delivered.
 */
export function mappedSerializer(name: string, messages: readonly MappedMessage[]): NamedSerializer {
  const byType = new Map<string, MappedMessage[]>();
  for (const message of messages) byType.set(message.type, [...(byType.get(message.type) ?? []), message]);
  const byWireType = new Map(messages.map((message) => [message.wireType, message]));
  if (byWireType.size !== messages.length) throw new TypeError('two formats share a wire type');
  const binary = binarySerializer({
    name,
    schemas: Object.fromEntries(messages.map((m) => [m.wireType, defineSchema(m.format.fields)])),
  });

  function encode(message: MappedMessage, payload: unknown): Uint8Array | undefined {
    const struct = message.format.toStruct(payload);
    if (struct === undefined) return undefined;
    try {
      return binary.serialize(message.wireType, struct);
    } catch (error) {
      // Something the checks let through but the schema refuses (a lone surrogate in an id): JSON carries it.
      if (error instanceof SerializationError) return undefined;
      throw error;
    }
  }

  function serialize(type: string, payload: unknown): Uint8Array {
    // Nobody may send a wire type by its own name: its JSON would be refused at the other end.
    if (byWireType.has(type)) throw new SerializationError(`"${type}" is reserved by the ${name} codec`);
    const candidates = byType.get(type);
    if (candidates !== undefined) {
      for (let i = 0; i < candidates.length; i++) {
        const body = encode(candidates[i] as MappedMessage, payload);
        if (body !== undefined) {
          // The format that fits moves to the front: a room plays one game at a time.
          if (i > 0) candidates.unshift(...candidates.splice(i, 1));
          return body;
        }
      }
    }
    return binary.serialize(type, payload);
  }

  function deserialize(body: Uint8Array): DecodedMessage {
    const message = binary.deserialize(body);
    const mapped = byWireType.get(message.type);
    if (mapped === undefined) return message;
    try {
      return { type: mapped.type, payload: mapped.format.fromStruct(message.payload as Record<string, unknown>) };
    } catch (error) {
      // Only bodies this side could have encoded decode (as in the codec itself).
      throw new SerializationError(`bad "${mapped.wireType}" body: ${(error as Error).message}`);
    }
  }

  return { name, serialize, deserialize };
}
