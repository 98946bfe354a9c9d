/** Public entry of the binary codec: schemas and the tagged binary serializer. */
export { FieldType, arrayOf, arrayOfTuples, optional, struct } from '../../../shared/codec/fieldTypes';
export type {
  Fields,
  FieldSpec,
  ScalarType,
  ArrayField,
  TupleArrayField,
  OptionalField,
  StructField,
  Infer,
  InferField,
} from '../../../shared/codec/fieldTypes';
export { defineSchema, type Schema, type SchemaValue } from './defineSchema';
export { binarySerializer, BinaryTag, type BinarySerializerOptions, type NamedSerializer } from './binarySerializer';
export { MAX_ENCODED_BYTES } from './byteWriter';
export { mappedSerializer, type MappedMessage } from './room/mappedSerializer';
export { roomSerializer, ROOM_SERIALIZER_PREFIX, type WiredGame } from './room/roomSerializer';
