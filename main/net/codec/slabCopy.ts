/** Size of each shared slab; messages up to a quarter of it are carved from one. */
const SLAB_BYTES = 32 * 1024;
const MAX_SLABBED = SLAB_BYTES / 4;

let slab = new ArrayBuffer(SLAB_BYTES);
let used = 0;

/**
 * An exact-length copy of `source[0, length)`. Small copies share a slab ArrayBuffer, as Node's Buffer pool does:
 * a fresh ArrayBuffer per message costs more than encoding a whole snapshot. So a result's `byteOffset` may be
 * non-zero and its `buffer` shared: read it through its own offset and length, never `result.buffer` whole.
 */
export function slabCopy(source: Uint8Array, length: number): Uint8Array {
  if (length > MAX_SLABBED) return source.slice(0, length);
  if (used + length > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    used = 0;
  }
  const out = new Uint8Array(slab, used, length);
  out.set(source.subarray(0, length));
  // Keep the next copy 8-byte aligned so callers may lay typed-array views over it.
  used += (length + 7) & ~7;
  return out;
}
