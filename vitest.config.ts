import { defineConfig } from 'vitest/config';

const shared = { environment: 'node' as const, testTimeout: 20_000, hookTimeout: 30_000 };

export default defineConfig({
  test: {
    // Socket tests bind real ports; two workers match this machine's two cores.
    maxWorkers: 2,
    reporters: ['default', './tests/support/summaryReporter.ts'],
    projects: [
      { test: { ...shared, name: 'node', include: ['tests/**/*.test.ts'], exclude: ['tests/e2e/**'] } },
      {
        // Browser tests run after everything else, one file at a time: two Chromiums plus their backends
        // already fill both cores, and timing-sensitive socket tests must not compete with them.
        test: {
          ...shared,
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
