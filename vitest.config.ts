import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

const shared = { environment: 'node' as const, testTimeout: 20_000, hookTimeout: 30_000 };

/** The static checks' test file: type-checks and lint as tests. */
const CHECKS = 'tests/scripts/checks.test.ts';

/**
 * The unit test files that replace a module with `vi.mock`: each needs a module registry of its own (two files mocking
 * `electron` differently saw each other's fake when they shared one).
 */
const MOCKING = readdirSync('tests', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts') && !/^(e2e|lab)\//.test(file))
  .map((file) => join('tests', file))
  .filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(file, 'utf8')));

export default defineConfig({
  test: {
    // Socket tests bind real ports; two workers match this machine's two cores (the unit tests and the labs, which
    // mostly wait on timers and other processes, take four and three: their projects say so).
    maxWorkers: 2,
    // The busy-core reporter first: it holds a core while the projects in LAN_PARTY_BUSY run (npm run test:busy,
    // .ci/run) and says so before the summary reporter's last line.
    reporters: ['default', './tests/support/busyCoreReporter.ts', './tests/support/summaryReporter.ts'],
    projects: [
      {
        // One module registry per worker, not per file: importing the sources anew for each of ~400 files was most of
        // this phase's time (measured: 178 s against 285 s). The tests share no module state; those that mock do not
        // run here. Then much of the phase is waiting (a stalled loop, a CLI's Ctrl-C, silence timeouts): a third
        // worker took it from 175 s to ~130 s, a fourth (the checks beside them) from 181 s to 164 s.
        test: {
          ...shared,
          name: 'node',
          maxWorkers: 4,
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/e2e/**', 'tests/lab/**', CHECKS, ...MOCKING],
          isolate: false,
        },
      },
      // Same group as 'node', so the same number of workers.
      { test: { ...shared, name: 'node-mocks', include: MOCKING, maxWorkers: 4 } },
      // The type-checks and lint (scripts/checks.ts), first in the group (vitest runs a group's projects in name
      // order): ~50 s of two busy cores beside unit tests that mostly wait, instead of before them.
      { test: { ...shared, name: 'checks', include: [CHECKS], maxWorkers: 4 } },
      {
        // The namespace and abuse labs after the unit tests, so LAN_PARTY_BUSY=lab,e2e loads exactly them. Their time
        // is mostly budgets, graces and other processes: three workers, busy spinner on, 247 s → 201 s.
        test: {
          ...shared,
          name: 'lab',
          include: ['tests/lab/**/*.test.ts'],
          sequence: { groupOrder: 1 },
          maxWorkers: 3,
          // One module registry per worker here too (no lab file mocks a module): a fresh one per file
          // re-imported vitest, the sources and the lab helpers 24 times (import 28 s → 17 s of the phase's workers).
          isolate: false,
        },
      },
      {
        // Browser tests run after everything else, so timing-sensitive socket tests never compete with them; two
        // files at a time (each two Chromiums and their backends): measured with the busy spinner holding a core,
        // the e2e phase took 178 s this way against ~290 s one file at a time, each file 10–16% slower than alone.
        test: {
          ...shared,
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          sequence: { groupOrder: 2 },
          // Playwright, axe-core and the backend's sources once per worker instead of once per file (import 59 s → 12 s
          // of the phase's two workers, with the busy spinner on); no browser test mocks a module.
          isolate: false,
          // A page answers a click or a load in well under a second when the machine is idle, but a CI run on a busy
          // core saw a fresh Chromium in a namespace take longer than the default second to draw its first screen:
          // every poll waits up to 10 s unless it says otherwise (a timing it asserts is measured, never polled).
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
