// The lab half of bench/internetPaths.ts, run through tsx in a process of its own (the namespace lab's helpers
// resolve their scripts from import.meta.url, which the bench's CommonJS bundle does not have): builds the lab,
// measures a direct and a relayed pair in alternating rounds, and prints one JSON line (InternetPathsRun).
import { natLabUnavailableReason } from '../tests/support/natLab';
import type { LabFigures } from '../tests/support/labIcePeer';
import {
  TURN_LEG_MS,
  UPLINK_MS,
  measureOnce,
  startIcePathsLab,
  turnLegCrossings,
  type Pair,
  type PathSetup,
} from '../tests/support/labIcePaths';

/** What the lab process prints: the measured rounds, or why it measured nothing. */
export type InternetPathsRun =
  | { skipped: string }
  | {
      uplinkMs: number;
      turnLegMs: number;
      pings: number;
      bulkMessages: number;
      setups: PathSetup[];
      legCrossings: number;
      direct: LabFigures[];
      relayed: LabFigures[];
    };

const ROUNDS = 5;
/**
 * Per round and path: pings for RTT, and 1000-byte messages for throughput. The paths are bound by their delays
 * (a relayed round is ~4 s of waiting, little CPU): 20 and 300 keep every round's window-limited transfer at ~19
 * windows, enough for a median.
 */
const PINGS = 20;
const BULK_MESSAGES = 300;

function expectKind(pair: Pair, kind: 'direct' | 'relayed'): void {
  for (const side of [pair.hostPath, pair.guestPath]) {
    if (side.ev === 'failed') throw new Error(`internet paths: no ${kind} path: ${side.message}`);
    if (side.path.kind !== kind) throw new Error(`internet paths: expected ${kind}, got ${side.path.kind}`);
  }
}

async function measure(): Promise<InternetPathsRun> {
  const skip = natLabUnavailableReason();
  if (skip) return { skipped: skip };
  const paths = await startIcePathsLab();
  try {
    const direct = await paths.connectPair('e1', 'e2');
    const relayed = await paths.connectPair('s1', 's2');
    expectKind(direct, 'direct');
    expectKind(relayed, 'relayed');
    await Promise.all([direct, relayed].flatMap((p) => [p.host.next('connected'), p.guest.next('connected')]));
    // Alternating rounds, so load from elsewhere on the machine falls on both paths alike.
    const rounds: { direct: LabFigures[]; relayed: LabFigures[] } = { direct: [], relayed: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.direct.push(await measureOnce(direct, PINGS, BULK_MESSAGES));
      rounds.relayed.push(await measureOnce(relayed, PINGS, BULK_MESSAGES));
    }
    for (const figures of [...rounds.direct, ...rounds.relayed]) {
      // A delay line cannot be beaten, and a path that moved nothing measured nothing: the lab is broken.
      const broken =
        !(figures.rawBytesPerSecond > 0 && figures.stackBytesPerSecond > 0) ||
        figures.rawRttMs < 2 * UPLINK_MS ||
        figures.stackRttMs < 2 * UPLINK_MS;
      if (broken) throw new Error(`internet paths: implausible figures ${JSON.stringify(figures)}`);
    }
    return {
      uplinkMs: UPLINK_MS,
      turnLegMs: TURN_LEG_MS,
      pings: PINGS,
      bulkMessages: BULK_MESSAGES,
      setups: paths.setups,
      legCrossings: turnLegCrossings(paths.lab, relayed),
      ...rounds,
    };
  } finally {
    await paths.destroy();
  }
}

measure().then(
  (run) => {
    process.stdout.write(`${JSON.stringify(run)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
