import type { Scheduler } from '../base/scheduler';

/** Options of {@link rejoinSeat}. */
export interface RejoinSeatOptions<T> {
  /** How long the room holds the seat, seconds (the welcome's graceSec): past it, trying is pointless. */
  readonly graceSec: number;
  readonly scheduler: Pick<Scheduler, 'now' | 'setTimer'>;
  /** One try to take the seat back (connect, hello with the resume token, welcome); rejects when it fails. */
  readonly attempt: () => Promise<T>;
  /** Whether a failure is the room's final word (the seat is gone): no more tries. */
  readonly isFinal: (error: unknown) => boolean;
  /** Pause between tries, ms. Default 1000. */
  readonly retryMs?: number;
  /** Whether the guest still wants the seat (false once it left): checked before every try. */
  readonly wanted?: () => boolean;
}

/** How taking a seat back went, and how long it took from the first try, ms. */
export type RejoinOutcome<T> =
  | { readonly ok: true; readonly value: T; readonly tookMs: number; readonly tries: number }
  | { readonly ok: false; readonly error: unknown; readonly tookMs: number; readonly tries: number };

/**
 * Tries to take a held seat back until one try works, the room says the seat is gone, the guest stops wanting
 * it, or the grace (counted from the first try, the moment the link was found dead) is over. Bounded in time by
 * the grace and in tries by it over `retryMs`.
 */
export async function rejoinSeat<T>(options: RejoinSeatOptions<T>): Promise<RejoinOutcome<T>> {
  const { scheduler } = options;
  const started = scheduler.now();
  const deadline = started + options.graceSec * 1000;
  const retryMs = options.retryMs ?? 1000;
  let tries = 0;
  let lastError: unknown = new Error('the seat was not held long enough to try');
  while (scheduler.now() < deadline && (options.wanted?.() ?? true)) {
    tries += 1;
    try {
      const value = await options.attempt();
      return { ok: true, value, tookMs: scheduler.now() - started, tries };
    } catch (error) {
      lastError = error;
      if (options.isFinal(error)) break;
    }
    const wait = Math.min(retryMs, deadline - scheduler.now());
    if (wait > 0) await new Promise<void>((resolve) => scheduler.setTimer(resolve, wait));
  }
  return { ok: false, error: lastError, tookMs: scheduler.now() - started, tries };
}

/** Options of {@link takeSeatBack}. */
export interface TakeSeatBackOptions<C, W> extends Omit<RejoinSeatOptions<{ client: C; answer: W }>, 'attempt'> {
  /** Our player id: a welcome to any other seat is no seat of ours. */
  readonly you: number;
  /** One connection and its admission with the resume token: the new client and its welcome. */
  readonly enter: () => Promise<{ client: C; answer: W }>;
  /** The error a welcome to another seat counts as. */
  readonly notOurs: () => Error;
}

/**
 * {@link rejoinSeat} for a guest's connections: a welcome to another seat is refused (and its client closed), and
 * a client that comes back after the guest stopped wanting the seat is closed too.
 */
export async function takeSeatBack<C extends { close(): Promise<void> }, W extends { you: number }>(
  options: TakeSeatBackOptions<C, W>,
): Promise<RejoinOutcome<{ client: C; answer: W }>> {
  const outcome = await rejoinSeat({
    ...options,
    attempt: async () => {
      const back = await options.enter();
      if (back.answer.you === options.you) return back;
      await back.client.close();
      throw options.notOurs();
    },
  });
  if (outcome.ok && !(options.wanted?.() ?? true)) {
    await outcome.value.client.close();
    return { ok: false, error: new Error('the guest left meanwhile'), tookMs: outcome.tookMs, tries: outcome.tries };
  }
  return outcome;
}
