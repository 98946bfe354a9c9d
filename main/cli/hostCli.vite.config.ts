import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { isBundleExternal } from '../shell/bundleExternals';

const root = resolve(__dirname, '../..');

/**
 * Builds the headless host into one Node script, dist/host/lan-party-host.cjs (the package's `bin`): dependencies
 * bundled but the native-addon externals (required from node_modules), Node built-ins left to Node, a shebang so it
 * runs as a command.
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
      // Native addons and their users load from node_modules at run time (main/shell/bundleExternals.ts).
      external: isBundleExternal,
      output: { format: 'cjs', entryFileNames: 'lan-party-host.cjs', banner: '#!/usr/bin/env node' },
    },
  },
});
