import { describe, expect, it } from 'vitest';
import { ArrivalGaps } from '../../../../main/reach/internet/arrivalGaps';

describe('ArrivalGaps (how long a silence is unusual on a path)', () => {
  it('says nothing until three datagrams came, then the largest gap of the last two 5 s windows', () => {
    const gaps = new ArrivalGaps(0);
    gaps.heard(400);
    gaps.heard(500);
    expect(gaps.largest).toBeUndefined();
    gaps.heard(1_300);
    expect(gaps.largest).toBe(800);
    // A new window keeps the last one's largest gap; the one before that is forgotten.
    for (let t = 5_050; t <= 10_000; t += 50) gaps.heard(t);
    expect(gaps.largest).toBe(3_750);
    for (let t = 10_050; t <= 15_100; t += 50) gaps.heard(t);
    expect(gaps.largest).toBe(50);
  });

  it('forgets everything on reset (a new path), counting from then', () => {
    const gaps = new ArrivalGaps(0);
    for (const t of [1_000, 2_000, 3_000]) gaps.heard(t);
    gaps.reset(10_000);
    expect(gaps.largest).toBeUndefined();
    for (const t of [10_100, 10_200, 10_300]) gaps.heard(t);
    expect(gaps.largest).toBe(100);
  });
});
