import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackend, type Backend, type BackendOptions } from '../../main/createBackend';
import { silentLogger } from '../../main/base/logger';

/**
 * A backend on a fresh temp user-data folder, as the app builds it; `cleanups` closes it and removes the
 * folder. `options` adds or overrides (network, player name, round length…).
 */
export async function testBackend(
  cleanups: Array<() => unknown>,
  options: Partial<BackendOptions> = {},
): Promise<Backend> {
  const dir = await mkdtemp(join(tmpdir(), 'lan-party-backend-'));
  const backend = createBackend({
    app: { name: 'LAN Party', version: '1.0.0', platform: 'linux' },
    userDataDir: dir,
    osUserName: 'ada',
    validateOutputs: true,
    logger: silentLogger,
    ...options,
  });
  cleanups.push(
    () => rm(dir, { recursive: true, force: true }),
    () => backend.close(),
  );
  return backend;
}
