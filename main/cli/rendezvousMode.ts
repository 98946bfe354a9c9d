import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lineLogger } from '../base/logger';
import { systemScheduler } from '../base/scheduler';
import { startRendezvousServer, type RendezvousServer } from '../rendezvous/rendezvousServer';
import { defaultRendezvousDataDir, loadOrCreateServiceKey, SERVICE_KEY_FILE_NAME } from '../rendezvous/serviceKey';
import type { RendezvousCliOptions } from './hostCliArgs';

/** A running self-host rendezvous, with the lines to print at start. */
export interface RendezvousMode {
  readonly server: RendezvousServer;
  readonly banner: string[];
  close(): Promise<void>;
}

/**
 * Starts the rendezvous service for `--rendezvous`; rejects when its port cannot be bound or its service key
 * file cannot be read (without --service-key-file the key lives in `dataDir`, so a restart keeps every room).
 */
export async function startRendezvousMode(
  options: RendezvousCliOptions,
  log: (line: string) => void,
  dataDir: string = defaultRendezvousDataDir(),
): Promise<RendezvousMode> {
  const keyFile = options.serviceKeyFile ?? join(dataDir, SERVICE_KEY_FILE_NAME);
  const serviceKey = loadOrCreateServiceKey(keyFile);
  const logger = lineLogger(log);
  const server = await startRendezvousServer({
    host: options.host,
    port: options.port,
    scheduler: systemScheduler,
    logger,
    ...(options.turnSecret !== undefined ? { turn: { urls: options.turnUrls, secret: options.turnSecret } } : {}),
    serviceKey,
    ...(options.tls
      ? { tls: { cert: readFileSync(options.tls.certFile), key: readFileSync(options.tls.keyFile) } }
      : {}),
    trustedProxies: options.trustedProxies,
  });
  const banner = [
    `Rendezvous for internet rooms on ${options.host}:${server.port}`,
    options.tls
      ? `Players' Settings → Internet rooms → rendezvous: wss://<this machine's name>:${server.port}/rendezvous/v1`
      : `Players' Settings → Internet rooms → rendezvous: wss://<your TLS proxy>/rendezvous/v1 (apps take ws://<address>:${server.port}/rendezvous/v1 only on loopback or a private lab network); or add --tls-cert and --tls-key`,
    `Service key: ${keyFile} (rooms keep their owners across restarts while it stays; back it up)`,
    options.turnSecret !== undefined
      ? `TURN: minting time-limited credentials for ${options.turnUrls.join(', ')} (shared-secret mode)`
      : 'TURN: none (players behind strict NATs cannot connect); add --turn-url and --turn-secret',
    `Allow TCP ${server.port} in; game traffic does not pass through here.`,
  ];
  return { server, banner, close: () => server.close() };
}
