import { describe, expect, it } from 'vitest';
import {
  PROOF_BYTES,
  deriveRoomKey,
  freshBytes,
  fromBase64Url,
  joinProof,
  proofMatches,
  toBase64Url,
} from '../../../main/lobby/passwordProof';

describe('password challenge–response', () => {
  it('proves the password for one nonce only, in constant-length base64url', async () => {
    const salt = freshBytes(PROOF_BYTES.salt);
    const key = await deriveRoomKey('hunter2', salt);
    expect(key).toHaveLength(32);
    const nonce = freshBytes(PROOF_BYTES.nonce);
    const proof = joinProof(await deriveRoomKey('hunter2', salt), nonce);
    expect(proofMatches(key, nonce, proof)).toBe(true);
    expect(toBase64Url(proof)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(proofMatches(key, nonce, fromBase64Url(toBase64Url(proof)))).toBe(true);
    // A replay against a fresh nonce, a wrong password, another salt, a truncated proof: all fail.
    expect(proofMatches(key, freshBytes(PROOF_BYTES.nonce), proof)).toBe(false);
    expect(proofMatches(key, nonce, joinProof(await deriveRoomKey('hunter3', salt), nonce))).toBe(false);
    expect(proofMatches(key, nonce, joinProof(await deriveRoomKey('hunter2', freshBytes(16)), nonce))).toBe(false);
    expect(proofMatches(key, nonce, proof.subarray(0, 31))).toBe(false);
  });

  it('never repeats a nonce and keeps the password out of the proof', async () => {
    const nonces = new Set(Array.from({ length: 1000 }, () => toBase64Url(freshBytes(PROOF_BYTES.nonce))));
    expect(nonces.size).toBe(1000);
    const proof = joinProof(await deriveRoomKey('correct horse', freshBytes(16)), freshBytes(32));
    expect(proof.includes(Buffer.from('correct horse'))).toBe(false);
  });

  it('treats the same password typed in another Unicode form as the same', async () => {
    const salt = freshBytes(16);
    expect(await deriveRoomKey('Zoe\u0308', salt)).toEqual(await deriveRoomKey('Zoë', salt));
  });
});
