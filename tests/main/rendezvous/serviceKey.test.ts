import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemScheduler } from '../../../main/base/scheduler';
import { silentLogger } from '../../../main/base/logger';
import type { RendezvousCliOptions } from '../../../main/cli/hostCliArgs';
import { startRendezvousMode } from '../../../main/cli/rendezvousMode';
import { startRendezvousHost } from '../../../main/reach/internet/rendezvousHost';
import { defaultRendezvousDataDir } from '../../../main/rendezvous/serviceKey';
import { loopbackRendezvousUrl } from '../reach/internet/loopbackInternetRoom';

const OPTIONS: RendezvousCliOptions = {
  host: '127.0.0.1',
  port: 0,
  turnUrls: [],
  turnSecret: undefined,
  logFile: undefined,
  serviceKeyFile: undefined,
  tls: undefined,
  trustedProxies: [],
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-rdv-key-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the rendezvous service key without --service-key-file', () => {
  it('lives in the data folder (0600), is reused by the next start, so an owner re-registers its room', async () => {
    const dataDir = join(dir, 'data');
    const first = await startRendezvousMode(OPTIONS, () => undefined, dataDir);
    const keyFile = join(dataDir, 'rendezvous.key');
    expect(first.banner.join('\n')).toContain(keyFile);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const key = await readFile(keyFile, 'utf8');
    const host = await startRendezvousHost({
      url: loopbackRendezvousUrl(first.server.port),
      scheduler: systemScheduler,
      logger: silentLogger,
    });
    const room = { roomId: host.roomId, roomSecret: host.roomSecret };
    host.close();
    await first.close();

    const second = await startRendezvousMode(OPTIONS, () => undefined, dataDir);
    try {
      expect(await readFile(keyFile, 'utf8')).toBe(key);
      // The restarted service still knows the owner: the same id, accepted with the same secret.
      const again = await startRendezvousHost({
        url: loopbackRendezvousUrl(second.server.port),
        scheduler: systemScheduler,
        logger: silentLogger,
        room,
      });
      expect(again.roomId).toBe(room.roomId);
      again.close();
    } finally {
      await second.close();
    }
  });

  it('refuses to start on a damaged key file, saying so, and leaves the file as it was', async () => {
    const keyFile = join(dir, 'rendezvous.key');
    await writeFile(keyFile, 'not a key\n');
    await expect(startRendezvousMode(OPTIONS, () => undefined, dir)).rejects.toThrow(/rendezvous\.key is damaged/);
    await writeFile(keyFile, '');
    await expect(startRendezvousMode(OPTIONS, () => undefined, dir)).rejects.toThrow(/is damaged/);
    expect(await readFile(keyFile, 'utf8')).toBe('');
    // A folder where the file should be: the reason, not a raw exception and not a new key somewhere else.
    await expect(
      startRendezvousMode({ ...OPTIONS, serviceKeyFile: dir }, () => undefined, join(dir, 'other')),
    ).rejects.toThrow(/cannot read the rendezvous service key .*EISDIR/);
  });

  it('defaults to the platform’s data folder', () => {
    expect(defaultRendezvousDataDir({}, 'linux', '/home/ada')).toBe('/home/ada/.local/share/lan-party');
    expect(defaultRendezvousDataDir({ XDG_DATA_HOME: '/srv/d' }, 'linux', '/home/ada')).toBe('/srv/d/lan-party');
    expect(defaultRendezvousDataDir({}, 'darwin', '/Users/ada')).toBe(
      '/Users/ada/Library/Application Support/lan-party',
    );
    expect(defaultRendezvousDataDir({ APPDATA: 'C:/Users/ada/AppData/Roaming' }, 'win32', 'C:/Users/ada')).toMatch(
      /Roaming[\\/]lan-party$/,
    );
  });
});
