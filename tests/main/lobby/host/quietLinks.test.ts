import { describe, expect, it } from 'vitest';
import { QUIET_CHECK_MS, QuietLinks, quietAfterMs } from '../../../../main/lobby/host/quietLinks';
import { HOST_PLAYER_ID } from '../../../../shared/lobby/lobbyState';

/** Checks every QUIET_CHECK_MS on a virtual clock from `from` to `to`, collecting the changes. */
function run(links: QuietLinks, from: number, to: number, sample: (now: number) => Parameters<QuietLinks['check']>[1]) {
  const changes: Array<{ at: number; seat: number; quiet: boolean }> = [];
  for (let now = from; now <= to; now += QUIET_CHECK_MS)
    for (const c of links.check(now, sample(now))) changes.push({ at: now, ...c });
  return changes;
}

describe('QuietLinks', () => {
  const after = quietAfterMs(1);

  it('waits a heartbeat interval plus 1.5 s of slack before calling a link quiet', () => {
    expect(after).toBe(2500);
    expect(quietAfterMs(2)).toBe(3500);
  });

  it('marks a guest not heard for longer than the threshold, and clears it once heard again', () => {
    const links = new QuietLinks(after);
    let received = 10;
    // Heard until 1000 ms, then silent until 6000 ms, then heard again.
    const changes = run(links, 0, 8000, (now) => {
      if (now <= 1000 || now >= 6000) received += 1;
      return [{ seat: 3, peerId: 3, received }];
    });
    expect(changes).toEqual([
      { at: 3750, seat: 3, quiet: true },
      { at: 6000, seat: 3, quiet: false },
    ]);
    expect(links.quietSeats.size).toBe(0);
  });

  it('never marks a guest heard at the heartbeat interval, nor one heard only at the lobby ping interval of 2 s', () => {
    const links = new QuietLinks(after);
    let heartbeat = 0;
    let pings = 0;
    const changes = run(links, 0, 60_000, (now) => {
      if (now % 1000 === 0) heartbeat += 1;
      if (now % 2000 === 0) pings += 1;
      return [
        { seat: 1, peerId: 1, received: heartbeat },
        { seat: 2, peerId: 2, received: pings },
      ];
    });
    expect(changes).toEqual([]);
  });

  it('never marks the host’s own seat', () => {
    const links = new QuietLinks(after);
    expect(run(links, 0, 10_000, () => [{ seat: HOST_PLAYER_ID, peerId: 0, received: 0 }])).toEqual([]);
  });

  it('forgets a removed player (its marker cleared) and counts a new connection under a seat as heard', () => {
    const links = new QuietLinks(after);
    expect(run(links, 0, 3000, () => [{ seat: 4, peerId: 4, received: 1 }])).toEqual([
      { at: 2750, seat: 4, quiet: true },
    ]);
    // Gone (left, or its seat held: the countdown takes over): cleared, then not tracked.
    expect(links.check(3250, [])).toEqual([{ seat: 4, quiet: false }]);
    expect(links.quietSeats.has(4)).toBe(false);
    expect(links.check(3500, [])).toEqual([]);
    // Back on a new connection with the same count: heard at that moment, so not quiet until the threshold again.
    expect(links.check(3750, [{ seat: 4, peerId: 9, received: 1 }])).toEqual([]);
    expect(links.check(3750 + after, [{ seat: 4, peerId: 9, received: 1 }])).toEqual([]);
    expect(links.check(4000 + after, [{ seat: 4, peerId: 9, received: 1 }])).toEqual([{ seat: 4, quiet: true }]);
  });
});
