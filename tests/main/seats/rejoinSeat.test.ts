import { describe, expect, it } from 'vitest';
import { rejoinSeat, type RejoinOutcome } from '../../../main/seats/rejoinSeat';
import { ManualScheduler } from '../../support/manualScheduler';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs rejoinSeat to its end, moving the manual clock 100 ms at a time (bounded). */
async function run<T>(clock: ManualScheduler, outcome: Promise<RejoinOutcome<T>>): Promise<RejoinOutcome<T>> {
  let done: RejoinOutcome<T> | undefined;
  void outcome.then((o) => (done = o));
  for (let step = 0; step < 2_000 && done === undefined; step += 1) {
    await flush();
    if (done === undefined) clock.advance(100);
  }
  await flush();
  if (done === undefined) throw new Error('rejoinSeat did not finish');
  return done;
}

class SeatGone extends Error {}

describe('rejoinSeat', () => {
  it('tries once a second until the link is back, and says how long it took', async () => {
    const clock = new ManualScheduler(0);
    const linkBackAt = 10_000;
    const outcome = await run(
      clock,
      rejoinSeat({
        graceSec: 30,
        scheduler: clock,
        attempt: async () => {
          if (clock.now() < linkBackAt) throw new Error('timed out');
          return 'seat 4';
        },
        isFinal: (e) => e instanceof SeatGone,
      }),
    );
    expect(outcome).toMatchObject({ ok: true, value: 'seat 4', tookMs: 10_000, tries: 11 });
  });

  it('stops at the room’s final word', async () => {
    const clock = new ManualScheduler(0);
    const outcome = await run(
      clock,
      rejoinSeat({
        graceSec: 30,
        scheduler: clock,
        attempt: async () => {
          throw new SeatGone('seat given up');
        },
        isFinal: (e) => e instanceof SeatGone,
      }),
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.tries).toBe(1);
    expect(outcome.ok ? undefined : outcome.error).toBeInstanceOf(SeatGone);
  });

  it('gives up when the grace is over, with the last failure', async () => {
    const clock = new ManualScheduler(0);
    const outcome = await run(
      clock,
      rejoinSeat({
        graceSec: 5,
        scheduler: clock,
        retryMs: 1000,
        attempt: async () => {
          throw new Error(`timed out at ${clock.now()}`);
        },
        isFinal: () => false,
      }),
    );
    expect(outcome).toMatchObject({ ok: false, tookMs: 5_000, tries: 5 });
    expect(String(outcome.ok ? '' : outcome.error)).toContain('timed out at 4000');
  });

  it('stops trying once the guest no longer wants the seat', async () => {
    const clock = new ManualScheduler(0);
    let wanted = true;
    let tries = 0;
    const outcome = await run(
      clock,
      rejoinSeat({
        graceSec: 30,
        scheduler: clock,
        wanted: () => wanted,
        attempt: async () => {
          tries += 1;
          if (tries === 3) wanted = false;
          throw new Error('timed out');
        },
        isFinal: () => false,
      }),
    );
    expect(outcome).toMatchObject({ ok: false, tries: 3 });
  });
});
