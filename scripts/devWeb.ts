// `npm run dev:web`: the production renderer in your own browser, talking to the real backend over the
// loopback WebSocket binding. Options: --port N (http port, default random), --user-data DIR (default a fresh
// private temp folder, removed on exit, so no other user or run shares its settings), and network
// flags: --loopback (stay on this machine), --discovery-port N, --game-port N, --bind ADDR, --advertise ADDR,
// --targets A,B (where LAN searches and announcements go), --ice-host A,B (extra ICE host candidates).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { consoleLogger } from '../main/base/logger';
import { DEV_WEB_NETWORK_FLAG_SPECS, networkOptionsFromFlags } from '../main/devServer/devWebNetworkArgs';
import { startDevServer } from '../main/devServer/startDevServer';
import { readOsUserName } from '../main/settings/osUserName';

const root = resolve(__dirname, '..');
const { values } = parseArgs({
  options: { port: { type: 'string' }, 'user-data': { type: 'string' }, ...DEV_WEB_NETWORK_FLAG_SPECS },
});
const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be an integer 0-65535, got ${values.port}`);
  process.exit(2);
}
let network;
try {
  network = networkOptionsFromFlags(values);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { productName?: string; version: string };

// mkdtemp: a new folder only this user can open (0700), never a fixed name another user could plant first.
const freshDir = values['user-data'] === undefined ? mkdtempSync(join(tmpdir(), 'lan-party-dev-web-')) : undefined;
const removeFreshDir = () => freshDir && rmSync(freshDir, { recursive: true, force: true });

startDevServer({
  rendererDir: join(root, 'dist/renderer'),
  userDataDir: freshDir ?? resolve(values['user-data']!),
  osUserName: readOsUserName(),
  app: { name: pkg.productName ?? 'LAN Party', version: pkg.version, platform: process.platform },
  httpPort: port,
  logger: consoleLogger('dev:web'),
  network,
}).then(
  (server) => {
    const stop = (): void => {
      void server.close().then(() => {
        removeFreshDir();
        process.exit(0);
      });
    };
    // Before saying where it is: whoever reads that may stop it at once, before this process runs again.
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    console.log(`LAN Party dev backend (settings in ${server.backend.settings.filePath})`);
    console.log(`Open: ${server.url}`);
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    removeFreshDir();
    process.exit(1);
  },
);
