/** Splitting a message body into fragment-sized pieces for the native protocol's FRAGMENT frames. */

function checkMaxPiece(maxPiece: number): void {
  if (!Number.isSafeInteger(maxPiece) || maxPiece < 1) {
    throw new RangeError(`maxPiece must be an integer >= 1, got ${maxPiece}`);
  }
}

/** How many pieces `splitMessage` yields for a body of `byteLength` bytes (at least 1: an empty body is one piece). */
export function fragmentCount(byteLength: number, maxPiece: number): number {
  checkMaxPiece(maxPiece);
  if (!Number.isSafeInteger(byteLength) || byteLength < 0) {
    throw new RangeError(`byteLength must be an integer >= 0, got ${byteLength}`);
  }
  return Math.max(1, Math.ceil(byteLength / maxPiece));
}

/**
 * Splits `body` into pieces of at most `maxPiece` bytes, in order; all but the last are exactly `maxPiece` long.
 * Pieces are `subarray` views sharing `body`'s memory (no copies), so the caller must not mutate `body` until sent.
 */
export function splitMessage(body: Uint8Array, maxPiece: number): Uint8Array[] {
  const count = fragmentCount(body.length, maxPiece);
  const pieces: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    pieces.push(body.subarray(i * maxPiece, Math.min(body.length, (i + 1) * maxPiece)));
  }
  return pieces;
}
