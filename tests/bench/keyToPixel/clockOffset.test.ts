import { describe, expect, it } from 'vitest';
import { originOffset } from '../../../bench/keyToPixel/clockOffset';

describe('originOffset', () => {
  it('sets the page clock by the two time origins, 0 uncertainty when a round trip contains the reading', () => {
    // The page started 1,000 ms after the bench: its clock reads 1,000 less.
    const readings = [{ before: 1500, page: 520, after: 1540 }];
    expect(originOffset(11_000, 10_000, readings)).toEqual({ offset: -1000, uncertainty: 0 });
  });

  it('rejects no readings and one that went backwards', () => {
    expect(() => originOffset(0, 0, [])).toThrow(RangeError);
    expect(() => originOffset(0, 0, [{ before: 5, page: 0, after: 4 }])).toThrow(/backwards/);
  });

  it('says how far outside its best round trip a wrong origin puts the reading', () => {
    const readings = [
      { before: 1500, page: 540, after: 1530 },
      { before: 1600, page: 647, after: 1640 },
    ];
    // 12 ms off: the first reading lands at 1552 (22 past its bound), the second at 1659 (19 past): 19.
    expect(originOffset(11_012, 10_000, readings).uncertainty).toBe(19);
  });
});
