// Refreshes tests/durations.json (the order tests/support/durationSequencer.ts runs slow files in) from vitest JSON
// reports: `npx vitest run --reporter=json --outputFile=test-output/results.json`, then
// `npx tsx scripts/testDurations.ts test-output/results.json`. Files the reports do not cover keep their entry.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

/** Where the measured durations live. */
export const DURATIONS_FILE = 'tests/durations.json';

/** Seconds each slower test file took when last measured, by path from the repository root. */
export function readDurations(file = DURATIONS_FILE): Record<string, number> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // A missing or damaged list only costs the order: vitest's own.
    return {};
  }
  if (typeof json !== 'object' || json === null) return {};
  return Object.fromEntries(
    Object.entries(json).filter((entry): entry is [string, number] => Number.isFinite(entry[1]) && entry[1] >= 0),
  );
}

/** Files faster than this are left out: their order does not move a phase's end. */
export const LISTED_FROM_SECONDS = 3;

/** One file's result in vitest's JSON report. */
interface ReportedFile {
  readonly name: string;
  readonly startTime: number;
  readonly endTime: number;
}

/** The durations list after `reports`: each reported file measured again, the others kept, deleted files dropped. */
export function mergeDurations(
  previous: Readonly<Record<string, number>>,
  reports: readonly { testResults: readonly ReportedFile[] }[],
  root: string,
  exists: (path: string) => boolean,
): Record<string, number> {
  const next: Record<string, number> = { ...previous };
  for (const file of reports.flatMap((report) => report.testResults)) {
    const path = relative(root, file.name).split('\\').join('/');
    const seconds = Math.round((file.endTime - file.startTime) / 100) / 10;
    if (seconds >= LISTED_FROM_SECONDS) next[path] = seconds;
    else delete next[path];
  }
  const kept = Object.entries(next).filter(([path]) => exists(path));
  return Object.fromEntries(kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

if (process.argv[1]?.endsWith('testDurations.ts')) {
  const reports = process.argv.slice(2).map((path) => JSON.parse(readFileSync(path, 'utf8')));
  if (reports.length === 0) {
    process.stderr.write('usage: tsx scripts/testDurations.ts <vitest JSON report>...\n');
    process.exit(2);
  }
  const merged = mergeDurations(readDurations(), reports, process.cwd(), existsSync);
  writeFileSync(DURATIONS_FILE, `${JSON.stringify(merged, null, 2)}\n`);
  process.stdout.write(`${DURATIONS_FILE}: ${Object.keys(merged).length} files\n`);
}
