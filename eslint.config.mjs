import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// One clock in main/: time and timers come from an injected Scheduler (main/base/scheduler.ts, monotonic ms) or
// WallClock (main/base/wallClock.ts), so tests move time by hand. main/base/ makes them; the entries
// (main/index.ts, main/cli/, main/devServer/) wire the real ones. setImmediate stays allowed: it ends an event-loop
// turn (batching), it does not measure time. A file listed below, each with its reason, may still read the clock or
// arm timers itself (none today):
const RAW_CLOCK_ALLOWED = [];
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
    // Promises in the main process: a rejection nobody handles closes the app (main/shell/mainProcessGuard.ts) and
    // kills the headless host, so every promise in main/ is awaited, handled, or marked `void` with a reason. These
    // rules need type information; it is built for main/ only so the rest of the lint stays fast.
    files: ['main/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
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
  {
    // Every UDP socket goes through the socket seam (main/net/endpoint/datagramSocket.ts), so the memory network
    // can carry any test; the seam's UDP implementation is the one place that opens node:dgram.
    files: ['main/**/*.ts'],
    ignores: ['main/net/endpoint/udpSocket.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportDeclaration[source.value=/^(node:)?dgram$/]',
          message: 'Open sockets through the socket seam (OpenDatagramSocket, main/net/endpoint/datagramSocket.ts).',
        },
      ],
    },
  },
  {
    // The room's rules are pure steps (state, input, now → state, effects): no Node built-in, no timer, no clock
    // read. Their shells (lobbyHost.ts, lobbyGuest.ts) own sockets and the one injected clock.
    files: ['main/lobby/host/roomStep.ts', 'main/lobby/guestJoin.ts', 'main/lobby/resumeProof.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'a pure step does no I/O' }] }],
      'no-restricted-globals': [
        'error',
        ...['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'queueMicrotask'].map(
          (name) => ({ name, message: 'a pure step arms no timer: return a wake time' }),
        ),
        ...['Date', 'performance', 'process', 'Buffer', 'crypto'].map((name) => ({
          name,
          message: 'a pure step reads no clock, environment or randomness: take it as input',
        })),
      ],
    },
  },
);
