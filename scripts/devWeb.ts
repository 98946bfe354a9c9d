// `npm run dev:web`: the production renderer in your own browser, talking to the real backend over the
// loopback WebSocket binding. Options: --port N (http port, default random), --user-data DIR, and network
// flags: --loopback (stay on this machine), --discovery-port N, --game-port N, --bind ADDR, --advertise ADDR,
// --targets A,B (where LAN searches and announcements go), --ice-host A,B (extra ICE host candidates).
import { readFileSync } from 'node:fs';
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

startDevServer({
  rendererDir: join(root, 'dist/renderer'),
  userDataDir: resolve(values['user-data'] ?? join(tmpdir(), 'lan-party-dev-web')),
  osUserName: readOsUserName(),
  app: { name: pkg.productName ?? 'LAN Party', version: pkg.version, platform: process.platform },
  httpPort: port,
  logger: consoleLogger('dev:web'),
  network,
}).then(
  (server) => {
    console.log(`LAN Party dev backend (settings in ${server.backend.settings.filePath})`);
    console.log(`Open: ${server.url}`);
    const stop = (): void => {
      void server.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
