/**
 * The string encodings CPace hashes (draft-irtf-cfrg-cpace's lv_cat and friends, appendix "string utility functions"): every field
 * carries its LEB128 length in front, so no two field lists encode alike and a message parses back exactly.
 */

/** `data` with its length in front, LEB128-encoded (one byte below 128). */
export function prependLen(data: Uint8Array): Uint8Array {
  const length: number[] = [];
  let rest = data.length;
  do {
    const low = rest & 0x7f;
    rest = Math.floor(rest / 128);
    length.push(rest > 0 ? low | 0x80 : low);
  } while (rest > 0);
  const out = new Uint8Array(length.length + data.length);
  out.set(length, 0);
  out.set(data, length.length);
  return out;
}

/** Concatenation of length-prefixed fields. */
export function prefixFreeCat(...fields: readonly Uint8Array[]): Uint8Array {
  return concatBytes(...fields.map(prependLen));
}

/** Plain concatenation. */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Splits a prefix-free message into exactly `count` fields; undefined when the lengths do not add up to the
 * message (the draft's "MUST abort" on an invalid encoding), never a throw.
 */
export function parsePrefixFree(message: Uint8Array, count: number): Uint8Array[] | undefined {
  const fields: Uint8Array[] = [];
  let at = 0;
  while (fields.length < count) {
    let length = 0;
    let scale = 1;
    for (;;) {
      if (at >= message.length || scale > 2 ** 28) return undefined;
      const byte = message[at++]!;
      length += (byte & 0x7f) * scale;
      scale *= 128;
      if ((byte & 0x80) === 0) break;
    }
    if (at + length > message.length) return undefined;
    fields.push(message.subarray(at, at + length));
    at += length;
  }
  return at === message.length ? fields : undefined;
}

/** Lexicographic order of byte strings, a shorter prefix sorting first. */
export function lexicographicallyLarger(a: Uint8Array, b: Uint8Array): boolean {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) {
    if (a[i]! > b[i]!) return true;
    if (a[i]! < b[i]!) return false;
  }
  return a.length > b.length;
}

const ORDERED_PREFIX = new TextEncoder().encode('oc');

/** The draft's o_cat: b"oc", then the lexicographically larger string first (runs without fixed roles). */
export function orderedCat(a: Uint8Array, b: Uint8Array): Uint8Array {
  return lexicographicallyLarger(a, b) ? concatBytes(ORDERED_PREFIX, a, b) : concatBytes(ORDERED_PREFIX, b, a);
}
