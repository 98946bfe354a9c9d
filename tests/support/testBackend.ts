import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackend, type Backend, type BackendOptions } from '../../main/createBackend';
import { silentLogger } from '../../main/base/logger';
import { freeUdpPort, loopbackNetwork } from './loopbackNetwork';

/**
 * A backend on a fresh temp user-data folder, as the app builds it; `cleanups` closes it and removes the
 * folder. Its network is always loopback ({@link loopbackNetwork} on a free discovery port): `options.network`
 * only overrides fields of that, never falls back to the app's defaults. `options` adds or overrides the rest.
 */
export async function testBackend(
  cleanups: Array<() => unknown>,
  options: Partial<BackendOptions> = {},
): Promise<Backend> {
  const dir = await mkdtemp(join(tmpdir(), 'lan-party-backend-'));
  const network = { ...loopbackNetwork(await freeUdpPort()), ...options.network };
  const backend = createBackend({
    app: { name: 'LAN Party', version: '1.0.0', platform: 'linux' },
    userDataDir: dir,
    osUserName: 'ada',
    validateOutputs: true,
    logger: silentLogger,
    ...options,
    network,
  });
  cleanups.push(
    () => rm(dir, { recursive: true, force: true }),
    () => backend.close(),
  );
  return backend;
}
