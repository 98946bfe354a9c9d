import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Socket tests bind real ports; two workers match this machine's two cores.
    maxWorkers: 2,
    reporters: ['default', './tests/support/summaryReporter.ts'],
  },
});
