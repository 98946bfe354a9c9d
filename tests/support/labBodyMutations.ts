import { ReservedType, Wire } from '../../main/net/v1/protocol';

/** A source of floats in [0, 1), injected so every fuzz run repeats from its seed. */
export type Random = () => number;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Picks one element of a non-empty list. */
export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** A whole number in [0, n). */
export function below(random: Random, n: number): number {
  return Math.floor(random() * n);
}

const TYPES = [...Object.values(ReservedType), 'o', 'u', 'n', 'x', '', '__x__', 'a'.repeat(300)];
const PAYLOADS = [
  '{}',
  '[]',
  'null',
  '1',
  '"s"',
  '{"id":1}',
  '{"id":-1}',
  '{"id":"1"}',
  '{"id":1e400}',
  '{"id":9007199254740993}',
  '{"id":0.5}',
  '{"peer_id":null}',
  '{"i":{"i":{"i":{}}}}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"s":"\\ud800"}',
];

/** Bodies that are valid JSON with a hostile shape or value, built around `type`. */
function structured(random: Random, type: string): string {
  const t = JSON.stringify(type);
  switch (below(random, 8)) {
    case 0:
      return `{"type":${JSON.stringify(pick(random, TYPES))},"payload":${pick(random, PAYLOADS)}}`;
    case 1:
      return `{"type":${t},"payload":${pick(random, PAYLOADS)}}`;
    case 2:
      return `{"type":${pick(random, ['1', 'null', '{}', '[]', 'true'])},"payload":{}}`;
    case 3: {
      const depth = 1 + below(random, Math.floor((Wire.MAX_BODY_SIZE - 40) / 2));
      return `{"type":${t},"payload":{"d":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    }
    case 4:
      return `{"type":${t},"payload":{"s":"${'x'.repeat(below(random, Wire.MAX_BODY_SIZE + 100))}"}}`;
    case 5:
      return `{"type":${t},"type":"__ping__","payload":{"id":1},"payload":[]}`;
    case 6:
      return `{"payload":{}}`;
    default:
      return `{"type":${t}}`;
  }
}

/** Deletes, inserts or replaces a few characters of the JSON text. */
function textual(random: Random, text: string): string {
  let out = text;
  for (let n = 1 + below(random, 3); n > 0; n--) {
    const at = below(random, out.length + 1);
    const ch = pick(random, ['{', '}', '[', ']', '"', ':', ',', '\\', '0', 'e', ' ', '\u0000', 'é', '\ud83d']);
    const op = below(random, 3);
    out = op === 0 ? out.slice(0, at) + out.slice(at + 1) : out.slice(0, at) + ch + out.slice(at + (op === 1 ? 0 : 1));
  }
  return out;
}

/** Bytes that are not valid UTF-8 (lone continuation, overlong, truncated sequence), placed in the body. */
function badUtf8(random: Random, body: Uint8Array): Uint8Array {
  const bad = pick(random, [[0xff], [0x80], [0xc0, 0xaf], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80]]);
  const at = below(random, body.byteLength + 1);
  const out = new Uint8Array(body.byteLength + bad.length);
  out.set(body.subarray(0, at));
  out.set(bad, at);
  out.set(body.subarray(at), at + bad.length);
  return out;
}

/**
 * A JSON-level mutation of a message body: hostile shapes (non-object payload, deep nesting, duplicate keys,
 * reserved or non-string types, huge numbers), textual damage, or invalid UTF-8. `allowed` filters which
 * reserved types may appear, so a caller can keep `__disconnect__` out of a session it wants to keep.
 */
export function mutateBody(random: Random, body: Uint8Array, allowed: (type: string) => boolean): Uint8Array {
  const text = decoder.decode(body);
  let type = 'x';
  try {
    const parsed = JSON.parse(text) as { type?: unknown };
    if (typeof parsed.type === 'string') type = parsed.type;
  } catch {
    // not JSON already: mutate the text as it is
  }
  const kind = below(random, 4);
  const out =
    kind === 0
      ? textual(random, text)
      : kind === 1
        ? badUtf8(random, body)
        : structured(random, allowed(type) ? type : 'x');
  const encoded = typeof out === 'string' ? encoder.encode(out) : out;
  return allowedBody(encoded, allowed) ? encoded : encoder.encode('{"type":"x","payload":{}}');
}

/** Whether every reserved type named in `body` passes `allowed`. */
function allowedBody(body: Uint8Array, allowed: (type: string) => boolean): boolean {
  const text = decoder.decode(body);
  return Object.values(ReservedType).every((t) => allowed(t) || !text.includes(t));
}
