import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// One clock in main/: time and timers come from an injected Scheduler (main/base/scheduler.ts, monotonic ms) or
// WallClock (main/base/wallClock.ts), so tests move time by hand. main/base/ makes them; the entries
// (main/index.ts, main/cli/, main/devServer/) wire the real ones. setImmediate stays allowed: it ends an event-loop
// turn (batching), it does not measure time. Each file below may still read the clock or arm timers itself:
const RAW_CLOCK_ALLOWED = [
  // owned by the room-core / sockets work: to be removed when they land
  'main/lobby/lobbyGuest.ts', // join timeout and the away countdown's wall time
  'main/lobby/guestQuietLink.ts', // the guest's quiet-link check interval
  'main/lobby/host/lobbyHost.ts', // ping and quiet-check intervals; the default wall clock
  'main/lobby/host/farewell.ts', // polls until goodbyes are acknowledged
  'main/conditioner/worker/syncCall.ts', // a deadline while blocked on Atomics.wait (no event loop to time it)
  'main/conditioner/devConditioner.ts', // seeds the dev conditioner from the time
];
const CLOCK_MESSAGE =
  'Take time from an injected Scheduler or WallClock (main/base/), or add the file to RAW_CLOCK_ALLOWED with a reason.';

export default tseslint.config(
  {
    // tests/fixtures/boundaries breaks the import rules on purpose (see tests/architecture/boundaries.test.ts).
    ignores: [
      'node_modules',
      'dist',
      'dist-electron',
      'dist-bench',
      'release',
      'test-output',
      'tests/fixtures/boundaries',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // shared/ runs in both processes: no Node, Electron or DOM globals. Its imports (no Node built-ins, no
    // Electron, no React) are checked by dependency-cruiser (.dependency-cruiser.cjs, npm run lint:deps),
    // which also sees type-only and re-exported imports; it cannot see globals, so they stay here.
    files: ['shared/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-globals': [
        'error',
        'window',
        'document',
        'navigator',
        'process',
        'Buffer',
        'require',
        '__dirname',
        'localStorage',
      ],
    },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/base/**', 'main/index.ts', 'main/cli/**', 'main/devServer/**', ...RAW_CLOCK_ALLOWED],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'].map((name) => ({
          name,
          message: CLOCK_MESSAGE,
        })),
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: CLOCK_MESSAGE },
        { object: 'performance', property: 'now', message: CLOCK_MESSAGE },
      ],
      'no-restricted-imports': [
        'error',
        ...['timers', 'timers/promises', 'node:timers', 'node:timers/promises'].map((name) => ({
          name,
          message: CLOCK_MESSAGE,
        })),
      ],
    },
  },
);
