import { describe, expect, it } from 'vitest';
import {
  assertSequence,
  assertSequenceModulus,
  isSequenceNewer,
  isSequenceNewerOnRing,
  isValidSequence,
  sequenceAdd,
  sequenceAddOnRing,
  sequenceDiff,
  sequenceDistance,
  sequenceDistanceOnRing,
  UINT32_SEQUENCE_MODULUS,
} from '../../../shared/net/sequenceMath';

const MAX = UINT32_SEQUENCE_MODULUS - 1;

describe('sequenceMath on the 2^32 ring', () => {
  it('treats a sequence just past the wrap as newer than one just before it', () => {
    expect(isSequenceNewer(0, MAX)).toBe(true);
    expect(isSequenceNewer(5, MAX - 5)).toBe(true);
    expect(isSequenceNewer(10, 0xfffffff0)).toBe(true);
    expect(isSequenceNewer(MAX, 0)).toBe(false);
  });

  it('compares normally away from the wrap, and equal is not newer', () => {
    expect(isSequenceNewer(11, 10)).toBe(true);
    expect(isSequenceNewer(10, 11)).toBe(false);
    expect(isSequenceNewer(7, 7)).toBe(false);
  });

  it('treats exactly half a ring apart as newer in neither direction', () => {
    expect(isSequenceNewer(2 ** 31, 0)).toBe(false);
    expect(isSequenceNewer(0, 2 ** 31)).toBe(false);
    expect(isSequenceNewer(2 ** 31 - 1, 0)).toBe(true);
  });

  it('wraps additions across 2^32 in both directions', () => {
    expect(sequenceAdd(MAX, 1)).toBe(0);
    expect(sequenceAdd(0, -1)).toBe(MAX);
    expect(sequenceAdd(MAX - 1, 5)).toBe(3);
  });

  it('measures forward distance in [0, 2^32) and signed difference in (-2^31, 2^31]', () => {
    expect(sequenceDistance(MAX - 1, 3)).toBe(5);
    expect(sequenceDistance(3, MAX - 1)).toBe(MAX - 4);
    expect(sequenceDistance(9, 9)).toBe(0);
    expect(sequenceDiff(0, MAX)).toBe(1);
    expect(sequenceDiff(MAX, 0)).toBe(-1);
    expect(sequenceDiff(100, 40)).toBe(60);
    expect(sequenceDiff(2 ** 31, 0)).toBe(2 ** 31);
    expect(sequenceDiff(2 ** 31 + 1, 0)).toBe(-(2 ** 31) + 1);
  });

  it('agrees with the any-modulus variants at modulus 2^32', () => {
    const samples = [0, 1, 5, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, MAX - 5, MAX];
    for (const a of samples) {
      for (const b of samples) {
        expect(isSequenceNewer(a, b)).toBe(isSequenceNewerOnRing(a, b, UINT32_SEQUENCE_MODULUS));
        expect(sequenceDistance(a, b)).toBe(sequenceDistanceOnRing(a, b, UINT32_SEQUENCE_MODULUS));
        expect(sequenceAdd(a, b)).toBe(sequenceAddOnRing(a, b, UINT32_SEQUENCE_MODULUS));
      }
    }
  });
});

describe('sequenceMath on any ring', () => {
  it('wraps, measures and orders on a small ring', () => {
    expect(isSequenceNewerOnRing(0, 15, 16)).toBe(true);
    expect(isSequenceNewerOnRing(15, 0, 16)).toBe(false);
    expect(isSequenceNewerOnRing(8, 0, 16)).toBe(false);
    expect(isSequenceNewerOnRing(0, 8, 16)).toBe(false);
    expect(sequenceAddOnRing(15, 3, 16)).toBe(2);
    expect(sequenceAddOnRing(1, -3, 16)).toBe(14);
    expect(sequenceDistanceOnRing(14, 2, 16)).toBe(4);
    expect(sequenceDistanceOnRing(2, 14, 16)).toBe(12);
  });

  it('validates sequences and moduli with clear errors', () => {
    expect(isValidSequence(0)).toBe(true);
    expect(isValidSequence(MAX)).toBe(true);
    expect(isValidSequence(2 ** 32)).toBe(false);
    expect(isValidSequence(-1)).toBe(false);
    expect(isValidSequence(1.5)).toBe(false);
    expect(isValidSequence('3')).toBe(false);
    expect(isValidSequence(15, 16)).toBe(true);
    expect(isValidSequence(16, 16)).toBe(false);
    expect(() => assertSequence(-1, UINT32_SEQUENCE_MODULUS, 'ack')).toThrow(/ack must be an integer/);
    expect(assertSequence(42)).toBe(42);
    expect(() => assertSequenceModulus(3)).toThrow(RangeError);
    expect(() => assertSequenceModulus(2 ** 60)).toThrow(RangeError);
    expect(() => assertSequenceModulus(256)).not.toThrow();
  });
});
