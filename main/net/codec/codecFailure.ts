import { SerializationError } from '../v1/serialization';

/**
 * Thrown inside the codec where a value or byte is wrong; each enclosing struct or array adds its segment to `path`
 * (innermost first) as it propagates, so only the failure path pays for naming the field.
 */
export class CodecFailure extends Error {
  override name = 'CodecFailure';
  readonly path: string[] = [];

  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Adds `segment` to a {@link CodecFailure}'s path as it leaves a struct or array; returns `error` to rethrow. */
export function within(error: unknown, segment: string): unknown {
  if (error instanceof CodecFailure) error.path.push(segment);
  return error;
}

/** Renders `['x', '[3]', 'entities']` as `entities[3].x`. */
export function formatPath(innermostFirst: readonly string[]): string {
  let out = '';
  for (let i = innermostFirst.length - 1; i >= 0; i--) {
    const segment = innermostFirst[i] as string;
    out += out === '' || segment.startsWith('[') ? segment : '.' + segment;
  }
  return out;
}

/** Turns a {@link CodecFailure} into the transport's {@link SerializationError}; other errors pass through. */
export function toSerializationError(error: unknown, context: string): unknown {
  if (!(error instanceof CodecFailure)) return error;
  const where = error.path.length > 0 ? ` at ${formatPath(error.path)}` : '';
  return new SerializationError(`${context}${where}: ${error.reason}`);
}

/** A short description of a wrong value for error messages (never its whole content). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return 'bytes';
  switch (typeof value) {
    case 'number':
      return String(value);
    case 'string':
      return value.length > 20 ? 'a string' : JSON.stringify(value);
    case 'undefined':
      return 'undefined (missing)';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}
