import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, type Logger } from '../../../main/base/logger';
import type { NetworkOptions } from '../../../main/base/networkOptions';
import { startDevServer, type DevServer, type DevServerOptions } from '../../../main/devServer/startDevServer';
import { assertRendererBuilt, RENDERER_DIST } from './rendererBuild';

/** One running backend with its own user-data folder. */
export interface TestBackend {
  readonly server: DevServer;
  readonly userDataDir: string;
}

/** Options for {@link startBackends}. */
export interface StartBackendsOptions {
  /** OS user name per backend (seeds the default player name); defaults to player1, player2, ... */
  readonly osUserNames?: readonly string[];
  readonly logger?: Logger;
  /** Network parameters for every backend (see tests/support/loopbackNetwork.ts); default the app's. */
  readonly network?: Partial<NetworkOptions>;
  /** Round length, results hold and games (the screens test plays short rounds, looks at results longer). */
  readonly game?: DevServerOptions['game'];
  /** The renderer build to serve; default the production build in dist/renderer. */
  readonly rendererDir?: string;
}

/** Starts N independent backends (static page + WebSocket binding + services), each on its own ports. */
export async function startBackends(count: number, options: StartBackendsOptions = {}): Promise<TestBackend[]> {
  const rendererDir = options.rendererDir ?? RENDERER_DIST;
  assertRendererBuilt(rendererDir);
  const started: TestBackend[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const userDataDir = await mkdtemp(join(tmpdir(), 'lan-party-e2e-user-'));
      const server = await startDevServer({
        rendererDir,
        userDataDir,
        osUserName: options.osUserNames?.[i] ?? `player${i + 1}`,
        app: { name: 'LAN Party', version: '0.0.0-e2e', platform: process.platform },
        logger: options.logger ?? silentLogger,
        // Router port mapping and the DHT stay off in every e2e backend: nothing may reach this machine's real
        // router or the public DHT.
        network: { routerGateways: [], ssdpTargets: [], dhtBootstrap: [], ...options.network },
        ...(options.game ? { game: options.game } : {}),
      }).catch(async (error: unknown) => {
        await rm(userDataDir, { recursive: true, force: true });
        throw error;
      });
      started.push({ server, userDataDir });
    }
    return started;
  } catch (error) {
    await stopBackends(started);
    throw error;
  }
}

/** Stops backends and deletes their user-data folders. */
export async function stopBackends(backends: readonly TestBackend[]): Promise<void> {
  for (const backend of backends) {
    await backend.server.close().catch(() => undefined);
    await rm(backend.userDataDir, { recursive: true, force: true });
  }
}
