import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import electron from 'vite-plugin-electron/simple';
import { isBundleExternal } from './main/shell/bundleExternals';
import { DEV_CONTENT_SECURITY_POLICY, withMetaCsp } from './main/shell/window/contentSecurityPolicy';

/** One config builds all three: the renderer (vite root), main and preload (CommonJS, for a sandboxed preload). */
export default defineConfig({
  root: resolve(__dirname, 'renderer'),
  base: './',
  build: {
    outDir: resolve(__dirname, 'dist/renderer'),
    emptyOutDir: true,
  },
  plugins: [
    react(),
    // The dev server's page may reach the loopback WebSocket binding; the built (packaged) page may not.
    { name: 'dev-csp', apply: 'serve', transformIndexHtml: (html) => withMetaCsp(html, DEV_CONTENT_SECURITY_POLICY) },
    electron({
      main: {
        entry: resolve(__dirname, 'main/index.ts'),
        vite: {
          // The update feed is fixed at build time (main/shell/desktop/updateFeed.ts); unset means a build without updates.
          define: { __LAN_PARTY_UPDATE_URL__: JSON.stringify(process.env.LAN_PARTY_UPDATE_URL ?? '') },
          build: {
            outDir: resolve(__dirname, 'dist-electron'),
            lib: { entry: resolve(__dirname, 'main/index.ts'), formats: ['cjs'], fileName: () => 'main.js' },
            // Native addons and their users load from node_modules at run time (main/shell/bundleExternals.ts).
            rolldownOptions: { external: (id) => id === 'electron' || id.startsWith('node:') || isBundleExternal(id) },
          },
        },
      },
      preload: {
        input: resolve(__dirname, 'preload/index.ts'),
        vite: {
          build: {
            outDir: resolve(__dirname, 'dist-electron'),
            rolldownOptions: { output: { format: 'cjs', entryFileNames: 'preload.js' } },
          },
        },
      },
    }),
  ],
});
