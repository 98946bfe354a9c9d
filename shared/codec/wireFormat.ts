import type { Fields } from './fieldTypes';

/**
 * How one message's payload maps onto a binary field list. `toStruct` maps a payload onto the fields only when the
 * struct decodes back to exactly the payload JSON would have delivered (otherwise undefined, and the message travels
 * as JSON), so the receiver sees the same values either way and validates them as before.
 */
export interface WireFormat {
  /** The binary layout (main/net/codec compiles it). */
  readonly fields: Fields;
  toStruct(payload: unknown): object | undefined;
  /** The payload as JSON would have delivered it, from a struct the fields decoded; throws on a value it never makes. */
  fromStruct(struct: Record<string, unknown>): Record<string, unknown>;
}
