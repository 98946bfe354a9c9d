import { describe, expect, it } from 'vitest';
import { describeAway } from '../../../renderer/src/logic/away';

describe('describeAway', () => {
  it('counts the seat’s wait down in whole seconds, rounding up, and never below zero', () => {
    expect(describeAway(31_000, 1_000)).toEqual({ label: 'Reconnecting… 30 s', seconds: 30 });
    expect(describeAway(31_000, 1_001)).toEqual({ label: 'Reconnecting… 30 s', seconds: 30 });
    expect(describeAway(31_000, 30_500)).toEqual({ label: 'Reconnecting… 1 s', seconds: 1 });
    expect(describeAway(31_000, 31_000)).toEqual({ label: 'Reconnecting…', seconds: 0 });
    expect(describeAway(31_000, 90_000)).toEqual({ label: 'Reconnecting…', seconds: 0 });
  });
});
