import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { formatBindingHash } from '../../shared/ipc/bindingHash';
import type { AppFacts } from '../shell/appInfoHandlers';
import { DEV_CONTENT_SECURITY_POLICY } from '../shell/window/contentSecurityPolicy';
import { createBackend, type Backend } from '../createBackend';
import type { Logger } from '../base/logger';
import type { NetworkOptions } from '../base/networkOptions';
import { createBindingSecret, startWebSocketBinding, type WebSocketBinding } from '../ipc/webSocketBinding';
import { startStaticServer } from './staticServer';

/** Options for {@link startDevServer}. */
export interface DevServerOptions {
  /** The production build, normally dist/renderer. */
  readonly rendererDir: string;
  /** Where settings.json lives (a temp dir in tests). */
  readonly userDataDir: string;
  readonly osUserName: string;
  readonly app: AppFacts;
  readonly httpPort?: number;
  readonly wsPort?: number;
  /** Defaults to a fresh random secret. */
  readonly secret?: string;
  readonly logger: Logger;
  /** The backend's network parameters (tests: loopback only); default the real app's. */
  readonly network?: Partial<NetworkOptions>;
  /** Game round length in seconds (the e2e test plays short rounds); default the rules' 90 s. */
  readonly gameRoundDuration?: number;
  /** Seconds the results show before the room returns to the lobby; default RESULTS_HOLD_SECONDS. */
  readonly gameResultsHoldSeconds?: number;
  /** Snapshots a second of hosted games, fixed (see BackendOptions.gameSnapshotsPerSecond); default per room. */
  readonly gameSnapshotsPerSecond?: number;
}

/** A running backend plus the page that talks to it. */
export interface DevServer {
  /** Open this in a browser: the page URL with `#ws=PORT&secret=...`. */
  readonly url: string;
  /** `http://127.0.0.1:PORT` of the static server. */
  readonly origin: string;
  readonly backend: Backend;
  readonly binding: WebSocketBinding;
  close(): Promise<void>;
}

/** Serves dist/renderer and the real backend over the WebSocket binding (Node only, no Electron). */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const indexPath = join(options.rendererDir, 'index.html');
  try {
    await access(indexPath);
  } catch {
    throw new Error(`${indexPath} is missing: run \`npm run build\` first to build the renderer.`);
  }
  const { logger } = options;
  const backend = createBackend({
    app: options.app,
    userDataDir: options.userDataDir,
    osUserName: options.osUserName,
    validateOutputs: true,
    logger,
    ...(options.network ? { network: options.network } : {}),
    ...(options.gameRoundDuration !== undefined ? { gameRoundDuration: options.gameRoundDuration } : {}),
    ...(options.gameResultsHoldSeconds !== undefined ? { gameResultsHoldSeconds: options.gameResultsHoldSeconds } : {}),
    ...(options.gameSnapshotsPerSecond !== undefined ? { gameSnapshotsPerSecond: options.gameSnapshotsPerSecond } : {}),
  });
  const web = await startStaticServer({
    root: options.rendererDir,
    csp: DEV_CONTENT_SECURITY_POLICY,
    port: options.httpPort,
    logger,
  });
  let binding: WebSocketBinding;
  try {
    binding = await startWebSocketBinding({
      gateway: backend.gateway,
      secret: options.secret ?? createBindingSecret(),
      port: options.wsPort,
      allowedOrigins: [web.origin],
      logger,
    });
  } catch (error) {
    await web.close();
    await backend.close();
    throw error;
  }
  let closing: Promise<void> | null = null;
  return {
    url: `${web.origin}/${formatBindingHash(binding.location)}`,
    origin: web.origin,
    backend,
    binding,
    close() {
      closing ??= (async () => {
        await binding.close();
        await web.close();
        await backend.close();
      })();
      return closing;
    },
  };
}
