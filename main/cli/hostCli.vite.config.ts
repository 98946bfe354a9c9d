import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const root = resolve(__dirname, '../..');

/**
 * Builds the headless host into one self-contained Node script, dist/host/lan-party-host.cjs (the package's
 * `bin`): dependencies bundled, Node built-ins left to Node, a shebang so it runs as a command.
 */
export default defineConfig({
  root,
  publicDir: false,
  logLevel: 'warn',
  ssr: { noExternal: true },
  build: {
    ssr: resolve(root, 'main/cli/hostCli.ts'),
    outDir: resolve(root, 'dist/host'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    rolldownOptions: {
      output: { format: 'cjs', entryFileNames: 'lan-party-host.cjs', banner: '#!/usr/bin/env node' },
    },
  },
});
