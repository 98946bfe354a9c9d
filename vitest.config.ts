import { defineConfig } from 'vitest/config';

const shared = { environment: 'node' as const, testTimeout: 20_000, hookTimeout: 30_000 };

export default defineConfig({
  test: {
    // Socket tests bind real ports; two workers match this machine's two cores.
    maxWorkers: 2,
    // The busy-core reporter first: it holds a core while the projects in LAN_PARTY_BUSY run (npm run test:busy,
    // .ci/run) and says so before the summary reporter's last line.
    reporters: ['default', './tests/support/busyCoreReporter.ts', './tests/support/summaryReporter.ts'],
    projects: [
      {
        test: { ...shared, name: 'node', include: ['tests/**/*.test.ts'], exclude: ['tests/e2e/**', 'tests/lab/**'] },
      },
      {
        // The namespace and abuse labs after the unit tests, so LAN_PARTY_BUSY=lab,e2e loads exactly them.
        test: { ...shared, name: 'lab', include: ['tests/lab/**/*.test.ts'], sequence: { groupOrder: 1 } },
      },
      {
        // Browser tests run after everything else, one file at a time: two Chromiums plus their backends
        // already fill both cores, and timing-sensitive socket tests must not compete with them.
        test: {
          ...shared,
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
