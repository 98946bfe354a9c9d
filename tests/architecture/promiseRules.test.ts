import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

// An unhandled rejection closes the app (main/shell/mainProcessGuard.ts) and the headless host, so main/ lints
// every promise: awaited, handled, or marked `void` with a reason. `npm run lint` applies the rules; this checks
// where they apply. Linting a probe here would build main/'s whole type program, too slow for the suite.
// Network: none. It only asks ESLint for the lint config of the paths below (main/index.ts, main/cli/hostCli.ts...);
// no backend, host or browser is started and no socket is opened, on loopback or anywhere else.
const eslint = new ESLint({ cwd: process.cwd() });

interface FileConfig {
  readonly rules: Record<string, unknown>;
  readonly languageOptions: { readonly parserOptions?: Record<string, unknown> };
}
const configFor = async (file: string) => (await eslint.calculateConfigForFile(file)) as FileConfig;

describe('promise rules', () => {
  it.each(['main/index.ts', 'main/cli/hostCli.ts', 'main/reach/internet/internetRoom.ts'])(
    'reject floating and misused promises in %s',
    async (file) => {
      const config = await configFor(file);
      expect(config.rules).toMatchObject({
        '@typescript-eslint/no-floating-promises': [2],
        '@typescript-eslint/no-misused-promises': [2],
      });
      expect(config.languageOptions.parserOptions).toMatchObject({ projectService: true });
    },
  );

  it.each(['renderer/src/main.tsx', 'shared/deepLink.ts', 'tests/main/mainEntry.test.ts', 'scripts/dist.ts'])(
    'build no type information for %s, so the rest of the lint stays fast',
    async (file) => {
      const config = await configFor(file);
      expect(config.rules).not.toHaveProperty('@typescript-eslint/no-floating-promises');
      expect(config.languageOptions.parserOptions ?? {}).not.toHaveProperty('projectService');
    },
  );
});
