import type { Random } from './labBodyMutations';

/** One place fuzz datagrams go, with a share of the total and its own generator. */
export interface FuzzTarget {
  name: string;
  /** Relative share of the datagrams. */
  weight: number;
  /** Produces the next datagram and its mutation kind. */
  next(): { kind: string; datagram: Uint8Array };
  send(datagram: Uint8Array): void;
}

/** What a pump run sent, per target and per mutation kind. */
export interface PumpReport {
  sent: number;
  byTarget: Record<string, number>;
  byKind: Record<string, number>;
  /** Times the pump waited for the receivers to catch up and gave up waiting (datagrams presumed lost). */
  stalls: number;
}

/** Pacing of a pump run. */
export interface PumpOptions {
  /** Most datagrams sent but not yet counted by the receivers (keeps socket buffers from overflowing). */
  maxOutstanding?: number;
  /** Datagrams sent between two yields to the event loop. */
  batch?: number;
  /** Called every `checkEvery` datagrams, e.g. to sample bounds while the fuzz runs. */
  check?: () => void;
  checkEvery?: number;
}

const immediate = () => new Promise<void>((r) => setImmediate(r));

/**
 * Sends `count` datagrams spread over `targets` by weight, in small batches, yielding to the event loop so
 * the endpoints under test (in this process) handle them as they come. `received()` is the receivers' total
 * datagram count; the pump waits while more than `maxOutstanding` are unaccounted for, and gives up waiting
 * after 50 ms without progress.
 */
export async function pumpFuzz(
  targets: readonly FuzzTarget[],
  count: number,
  random: Random,
  received: () => number,
  options: PumpOptions = {},
): Promise<PumpReport> {
  const maxOutstanding = options.maxOutstanding ?? 512;
  const batch = options.batch ?? 32;
  const checkEvery = options.checkEvery ?? 5000;
  const total = targets.reduce((n, t) => n + t.weight, 0);
  const report: PumpReport = { sent: 0, byTarget: {}, byKind: {}, stalls: 0 };
  let credited = received();
  let counted = 0;
  const choose = (): FuzzTarget => {
    let r = random() * total;
    for (const t of targets) if ((r -= t.weight) < 0) return t;
    return targets[targets.length - 1]!;
  };
  while (report.sent < count) {
    for (let i = 0; i < batch && report.sent < count; i++) {
      const target = choose();
      const { kind, datagram } = target.next();
      target.send(datagram);
      report.sent += 1;
      counted += 1;
      report.byTarget[target.name] = (report.byTarget[target.name] ?? 0) + 1;
      report.byKind[kind] = (report.byKind[kind] ?? 0) + 1;
      if (options.check && report.sent % checkEvery === 0) options.check();
    }
    await immediate();
    let last = performance.now();
    let seen = received();
    while (counted - (seen - credited) > maxOutstanding) {
      await immediate();
      const now = received();
      if (now !== seen) {
        seen = now;
        last = performance.now();
      } else if (performance.now() - last > 50) {
        report.stalls += 1;
        break;
      }
    }
    if (counted - (seen - credited) > maxOutstanding) {
      credited = seen;
      counted = 0;
    }
  }
  return report;
}
