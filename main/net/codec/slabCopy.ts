/** Size of each shared slab; messages up to a quarter of it are carved from one. */
const SLAB_BYTES = 32 * 1024;
const MAX_SLABBED = SLAB_BYTES / 4;

const copySlice = Uint8Array.prototype.slice;

let slab = new ArrayBuffer(SLAB_BYTES);
let used = 0;

/**
 * An exact-length copy of `source[start, start + length)`. Small copies share a slab ArrayBuffer, as Node's Buffer pool does:
 * a fresh ArrayBuffer per message costs more than encoding a whole snapshot. So a result's `byteOffset` may be
 * non-zero and its `buffer` shared: read it through its own offset and length, never `result.buffer` whole.
 */
export function slabCopy(source: Uint8Array, length: number, start = 0): Uint8Array {
  // Uint8Array's slice, which copies (a Buffer's slice would be a view).
  if (length > MAX_SLABBED) return copySlice.call(source, start, start + length);
  if (used + length > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    used = 0;
  }
  const out = new Uint8Array(slab, used, length);
  out.set(source.subarray(start, start + length));
  // Keep the next copy 8-byte aligned so callers may lay typed-array views over it.
  used += (length + 7) & ~7;
  return out;
}
