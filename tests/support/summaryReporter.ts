import type { Reporter, TestModule } from 'vitest/node';

/** Seconds since `.ci/run` started (it exports LAN_PARTY_CI_STARTED, epoch ms), or undefined outside it. */
export function ciSeconds(started: string | undefined, nowMs: number): number | undefined {
  const startedMs = Number(started);
  if (started === undefined || started === '' || !Number.isFinite(startedMs)) return undefined;
  return Math.max(0, (nowMs - startedMs) / 1000);
}

/** `9 min 05 s`, the form .ci/run's time is printed in. */
export function formatMinutes(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

/**
 * Prints the plain `N passed, N failed` line CI reads, after vitest's own summary; under .ci/run the time the whole
 * run took just before it, so the summary stays the last line.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      // A file that failed to load has no test cases, but it is still a failure.
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed += 1;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    failed += unhandledErrors.length;
    const took = ciSeconds(process.env.LAN_PARTY_CI_STARTED, Date.now());
    if (took !== undefined) process.stdout.write(`\n.ci/run took ${formatMinutes(took)}`);
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
