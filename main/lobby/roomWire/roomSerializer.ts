import { binarySerializer, type NamedSerializer } from '../../net/codec/index';
import { SerializationError, type DecodedMessage } from '../../net/index';
import { inputWire } from './inputWire';
import { snapshotWire } from './snapshotWire';
import type { WireMessage } from './wireMessage';

/** Offered in the native handshake; change it whenever a wire message's schema or meaning changes. */
export const ROOM_SERIALIZER_NAME = 'lanparty-room.1';

const WIRES: readonly WireMessage[] = [inputWire, snapshotWire];

/**
 * The body codec of a room's native links between LAN Party apps: the game's per-tick messages (`game.input`,
 * `game.snapshot`) schema-encoded, everything else (and any payload the schemas cannot carry exactly) compact JSON.
 * A peer that does not offer this name (v1 or an older build) gets JSON as before.
 */
export function roomSerializer(): NamedSerializer {
  const byType = new Map(WIRES.map((wire) => [wire.type, wire]));
  const byWireType = new Map(WIRES.map((wire) => [wire.wireType, wire]));
  const binary = binarySerializer({
    name: ROOM_SERIALIZER_NAME,
    schemas: Object.fromEntries(WIRES.map((wire) => [wire.wireType, wire.schema])),
  });

  function serialize(type: string, payload: unknown): Uint8Array {
    // Nobody may send a wire type by its own name: its JSON would be refused at the other end.
    if (byWireType.has(type)) throw new SerializationError(`"${type}" is reserved by the room codec`);
    const wire = byType.get(type);
    const struct = wire?.toStruct(payload);
    if (wire === undefined || struct === undefined) return binary.serialize(type, payload);
    try {
      return binary.serialize(wire.wireType, struct);
    } catch (error) {
      // Something the checks let through but the schema refuses (a lone surrogate in an id): JSON carries it.
      if (error instanceof SerializationError) return binary.serialize(type, payload);
      throw error;
    }
  }

  function deserialize(body: Uint8Array): DecodedMessage {
    const message = binary.deserialize(body);
    const wire = byWireType.get(message.type);
    return wire === undefined ? message : { type: wire.type, payload: wire.fromStruct(message.payload) };
  }

  return { name: ROOM_SERIALIZER_NAME, serialize, deserialize };
}
