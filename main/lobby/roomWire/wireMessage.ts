import type { Schema } from '../../net/codec/index';

/**
 * One hot message type carried schema-encoded on the room's native links. `toStruct` maps a payload onto the schema
 * only when the struct decodes back to exactly the payload JSON would have delivered (otherwise undefined, and the
 * message travels as JSON), so the receiver sees the same values either way and validates them as before.
 */
export interface WireMessage {
  /** The transport message type, e.g. `game.input`. */
  readonly type: string;
  /** The schema's own type name inside the binary serializer (distinct, so JSON fallbacks of `type` stay legal). */
  readonly wireType: string;
  readonly schema: Schema;
  toStruct(payload: unknown): object | undefined;
  /** The payload as JSON would have delivered it, from a struct the schema decoded. */
  fromStruct(struct: Record<string, unknown>): Record<string, unknown>;
}
