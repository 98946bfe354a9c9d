import { describe, expect, it } from 'vitest';
import { isSequenceNewer, sequenceAdd, sequenceDiff } from '../../../../main/net/v1/sequence';

describe('sequence math with wraparound', () => {
  it('orders plain numbers', () => {
    expect(isSequenceNewer(2, 1)).toBe(true);
    expect(isSequenceNewer(1, 2)).toBe(false);
    expect(isSequenceNewer(5, 5)).toBe(false);
  });

  it('treats 0 as newer than 2^32-1 across the wrap', () => {
    expect(isSequenceNewer(0, 0xffffffff)).toBe(true);
    expect(isSequenceNewer(0xffffffff, 0)).toBe(false);
    expect(isSequenceNewer(10, 0xfffffff0)).toBe(true);
  });

  it('splits the circle at half: exactly 2^31 apart is not newer either way', () => {
    expect(isSequenceNewer(2 ** 31, 0)).toBe(false);
    expect(isSequenceNewer(0, 2 ** 31)).toBe(false);
    expect(isSequenceNewer(2 ** 31 - 1, 0)).toBe(true);
  });

  it('adds and diffs modulo 2^32', () => {
    expect(sequenceAdd(0xffffffff, 1)).toBe(0);
    expect(sequenceAdd(0, -1)).toBe(0xffffffff);
    expect(sequenceDiff(0, 0xffffffff)).toBe(1);
    expect(sequenceDiff(0xffffffff, 0)).toBe(-1);
    expect(sequenceDiff(100, 40)).toBe(60);
  });
});
