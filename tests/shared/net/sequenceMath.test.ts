import { describe, expect, it } from 'vitest';
import {
  assertSequence,
  assertSequenceModulus,
  isSequenceNewer,
  isValidSequence,
  sequenceAdd,
  sequenceDistance,
  UINT32_SEQUENCE_MODULUS,
} from '../../../shared/net/sequenceMath';

const MAX = UINT32_SEQUENCE_MODULUS - 1;

describe('sequenceMath', () => {
  it('treats a sequence just past the wrap as newer than one just before it', () => {
    expect(isSequenceNewer(0, MAX)).toBe(true);
    expect(isSequenceNewer(5, MAX - 5)).toBe(true);
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

  it('supports a configurable modulus', () => {
    expect(isSequenceNewer(0, 15, 16)).toBe(true);
    expect(isSequenceNewer(15, 0, 16)).toBe(false);
    expect(sequenceAdd(15, 3, 16)).toBe(2);
    expect(sequenceAdd(1, -3, 16)).toBe(14);
    expect(sequenceDistance(14, 2, 16)).toBe(4);
  });

  it('wraps additions and distances across 2^32', () => {
    expect(sequenceAdd(MAX, 1)).toBe(0);
    expect(sequenceDistance(MAX - 1, 3)).toBe(5);
  });

  it('validates sequences and moduli with clear errors', () => {
    expect(isValidSequence(0)).toBe(true);
    expect(isValidSequence(MAX)).toBe(true);
    expect(isValidSequence(2 ** 32)).toBe(false);
    expect(isValidSequence(-1)).toBe(false);
    expect(isValidSequence(1.5)).toBe(false);
    expect(isValidSequence('3')).toBe(false);
    expect(() => assertSequence(-1, UINT32_SEQUENCE_MODULUS, 'ack')).toThrow(/ack must be an integer/);
    expect(assertSequence(42)).toBe(42);
    expect(() => assertSequenceModulus(3)).toThrow(RangeError);
    expect(() => assertSequenceModulus(2 ** 60)).toThrow(RangeError);
    expect(() => assertSequenceModulus(256)).not.toThrow();
  });
});
