import { describe, expect, it } from 'vitest';
import { describeLastSeen } from '../../../renderer/src/logic/lastSeen';

const AT = 1_700_000_000_000;

describe('describeLastSeen', () => {
  it('says "just now" for a room heard in the last few seconds, then counts seconds and minutes', () => {
    expect(describeLastSeen(AT, AT, 60_000)).toEqual({ label: 'seen just now', stale: false });
    expect(describeLastSeen(AT, AT + 4_999, 60_000)).toEqual({ label: 'seen just now', stale: false });
    expect(describeLastSeen(AT, AT + 5_000, 60_000)).toEqual({ label: 'seen 5 s ago', stale: false });
    expect(describeLastSeen(AT, AT + 12_900, 60_000)).toEqual({ label: 'seen 12 s ago', stale: false });
    expect(describeLastSeen(AT, AT + 59_999, 600_000)).toEqual({ label: 'seen 59 s ago', stale: false });
    expect(describeLastSeen(AT, AT + 185_000, 600_000)).toEqual({ label: 'seen 3 min ago', stale: false });
  });

  it('marks a room stale once it is older than the list’s limit, and says how long it has been quiet', () => {
    expect(describeLastSeen(AT, AT + 3_499, 3_500)).toEqual({ label: 'seen just now', stale: false });
    expect(describeLastSeen(AT, AT + 3_500, 3_500)).toEqual({ label: 'not heard for 3 s', stale: true });
    expect(describeLastSeen(AT, AT + 7_200, 3_500)).toEqual({ label: 'not heard for 7 s', stale: true });
    expect(describeLastSeen(AT, AT + 120_000, 3_500)).toEqual({ label: 'not heard for 2 min', stale: true });
  });

  it('treats a last-seen time ahead of the clock as now', () => {
    expect(describeLastSeen(AT + 2_000, AT, 3_500)).toEqual({ label: 'seen just now', stale: false });
  });
});
