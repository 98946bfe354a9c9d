import { Buffer } from 'node:buffer';

/** A message body's decoded form: the reference's `{type, payload}` pair. */
export interface DecodedMessage {
  type: string;
  payload: Record<string, unknown>;
}

/** Turns messages into body bytes and back. Both ends of a connection must use the same one. */
export interface Serializer {
  /** Names the format, so two native peers can tell they share it (offered in the handshake). */
  readonly name?: string;
  serialize(type: string, payload: unknown): Uint8Array;
  /** Throws {@link SerializationError} (or any error) for bytes that are not a message. */
  deserialize(body: Uint8Array): DecodedMessage;
}

/** A body that is not a valid message, or a payload that cannot be encoded. */
export class SerializationError extends Error {
  override name = 'SerializationError';
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Adds Python's default `", "` and `": "` separators to compact JSON, outside strings. */
function pythonSeparators(compact: string): string {
  let out = '';
  let inString = false;
  let start = 0;
  for (let i = 0; i < compact.length; i++) {
    const c = compact.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x2c || c === 0x3a) {
      out += compact.slice(start, i + 1) + ' ';
      start = i + 1;
    }
  }
  return out + compact.slice(start);
}

/** Escapes every non-ASCII or DEL character as `\uXXXX`, as Python's `ensure_ascii` does. */
function asciiOnly(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0'));
}

function encodeEnvelope(type: string, payload: unknown, pythonStyle: boolean): Uint8Array {
  if (typeof type !== 'string') throw new SerializationError('message type must be a string');
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new SerializationError(`payload of "${type}" must be a plain object`);
  }
  let json: string;
  try {
    json = JSON.stringify({ type, payload });
  } catch (err) {
    throw new SerializationError(`payload of "${type}" is not JSON-serializable: ${(err as Error).message}`);
  }
  // Buffer.from uses Node's pool for small bodies: markedly cheaper than TextEncoder per message.
  return Buffer.from(pythonStyle ? asciiOnly(pythonSeparators(json)) : json, 'utf8');
}

/** Parses a `{type, payload}` JSON body; any valid JSON of that shape is accepted. */
function decodeEnvelope(body: Uint8Array): DecodedMessage {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(body));
  } catch {
    throw new SerializationError('body is not UTF-8 JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new SerializationError('body is not a JSON object');
  }
  const { type, payload } = value as { type?: unknown; payload?: unknown };
  if (typeof type !== 'string') throw new SerializationError('body has no string "type"');
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new SerializationError('body has no object "payload"');
  }
  return { type, payload: payload as Record<string, unknown> };
}

/** The reference's JSON serializer, byte for byte: `", "`/`": "` separators and ASCII escapes. */
export const jsonSerializer: Serializer = {
  name: 'json',
  serialize: (type, payload) => encodeEnvelope(type, payload, true),
  deserialize: decodeEnvelope,
};

/** Compact JSON (no spaces, UTF-8): fewer bytes, still accepted by the reference. */
export const compactJsonSerializer: Serializer = {
  name: 'json',
  serialize: (type, payload) => encodeEnvelope(type, payload, false),
  deserialize: decodeEnvelope,
};
