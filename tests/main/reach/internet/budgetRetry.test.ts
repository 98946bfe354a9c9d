import { describe, expect, it } from 'vitest';
import { MAX_AUTO_RETRY_WAIT_SEC, MAX_JOIN_TRIES } from '../../../../main/base/retryShortWaits';
import { budgetWaitSec, withBudgetRetry } from '../../../../main/reach/internet/budgetRetry';
import { retryWaitText } from '../../../../main/reach/internet/internetRoom';
import { RendezvousError, RendezvousErrorCode } from '../../../../shared/rendezvous';
import { ManualScheduler } from '../../../support/manualScheduler';

const budgetRefusal = (seconds: number) =>
  new RendezvousError(RendezvousErrorCode.REJECTED, `Too many wrong codes for this room; try again in ${seconds} s.`);

/** Lets the promise chain run (each try's rejection is a few microtasks away). */
const settle = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

describe('budgetWaitSec', () => {
  it('reads the wait of a host budget refusal', () => {
    expect(budgetWaitSec(budgetRefusal(2))).toBe(2);
    expect(budgetWaitSec(budgetRefusal(1.5))).toBe(1.5);
    expect(budgetWaitSec(budgetRefusal(MAX_AUTO_RETRY_WAIT_SEC))).toBe(MAX_AUTO_RETRY_WAIT_SEC);
  });

  it('refuses long waits, other refusals, other errors and odd text', () => {
    expect(budgetWaitSec(budgetRefusal(MAX_AUTO_RETRY_WAIT_SEC + 1))).toBeUndefined();
    expect(budgetWaitSec(budgetRefusal(0))).toBeUndefined();
    expect(
      budgetWaitSec(new RendezvousError(RendezvousErrorCode.REJECTED, 'The host is busy; try again in a moment.')),
    ).toBeUndefined();
    expect(budgetWaitSec(new RendezvousError(RendezvousErrorCode.ROOM_UNKNOWN, 'try again in 2 s'))).toBeUndefined();
    expect(budgetWaitSec(new Error('try again in 2 s'))).toBeUndefined();
    expect(budgetWaitSec(undefined)).toBeUndefined();
    expect(budgetWaitSec(new RendezvousError(RendezvousErrorCode.REJECTED, 'try again in 99999 s'))).toBeUndefined();
  });
});

describe('the host’s wording and the guest’s reading agree', () => {
  it('a wait in tenths under 10 s, whole seconds above; the guest reads back at least the wait asked', () => {
    for (const ms of [1, 99, 100, 1450, 1500, 2000, 4999, 5000]) {
      const read = budgetWaitSec(budgetRefusal(Number(retryWaitText(ms))));
      expect(read! * 1000).toBeGreaterThanOrEqual(ms);
      expect(read! * 1000 - ms).toBeLessThan(100);
    }
    expect(retryWaitText(9_999)).toBe('10');
    expect(retryWaitText(12_001)).toBe('13');
    expect(budgetWaitSec(budgetRefusal(Number(retryWaitText(12_001))))).toBeUndefined();
  });
});

describe('withBudgetRetry', () => {
  it('waits out the asked seconds on the scheduler and tries again, with the result of the try that worked', async () => {
    const scheduler = new ManualScheduler();
    let tries = 0;
    const result = withBudgetRetry(scheduler, async () => {
      tries += 1;
      if (tries === 1) throw budgetRefusal(2);
      return 'in';
    });
    await settle();
    expect(tries).toBe(1);
    scheduler.advance(1999);
    await settle();
    expect(tries).toBe(1);
    scheduler.advance(1);
    await settle();
    expect(tries).toBe(2);
    await expect(result).resolves.toBe('in');
  });

  it(`gives up after ${MAX_JOIN_TRIES} tries with the host's refusal`, async () => {
    const scheduler = new ManualScheduler();
    let tries = 0;
    const result = withBudgetRetry(scheduler, async () => {
      tries += 1;
      throw budgetRefusal(1);
    });
    const outcome = result.catch((error: unknown) => error);
    for (let i = 0; i < MAX_JOIN_TRIES + 2; i += 1) {
      await settle();
      scheduler.advance(1000);
    }
    await settle();
    expect(tries).toBe(MAX_JOIN_TRIES);
    expect(await outcome).toBeInstanceOf(RendezvousError);
  });

  it('any other failure ends it at once, with no timer left behind', async () => {
    const scheduler = new ManualScheduler();
    let tries = 0;
    const wrongCode = new RendezvousError(RendezvousErrorCode.KEY_MISMATCH);
    const result = withBudgetRetry(scheduler, async () => {
      tries += 1;
      throw wrongCode;
    });
    await expect(result).rejects.toBe(wrongCode);
    expect(tries).toBe(1);
    expect(scheduler.pending).toBe(0);
  });
});
