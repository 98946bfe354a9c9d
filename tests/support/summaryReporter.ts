import type { Reporter, TestModule } from 'vitest/node';

/** Prints the plain `N passed, N failed` line CI reads, after vitest's own summary. */
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
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
