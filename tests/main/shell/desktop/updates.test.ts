import { generateKeyPairSync } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { UpdateDownloadedEvent, UpdateInfo } from 'electron-updater';
import { describe, expect, it, vi } from 'vitest';
import type { UpdateStatus } from '../../../../shared/ipc/schemas/shell';
import { startUpdates, type Updater, type UpdateOptions } from '../../../../main/shell/desktop/updates';
import { publicKeyOf, signUpdateInfo } from '../../../../main/shell/desktop/updateSignature';
import { loggerSpy } from '../../ipc/loggerSpy';
import { waitFor } from '../../../support/waitFor';

const pem = (pair: ReturnType<typeof generateKeyPairSync>) =>
  pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const maintainer = pem(generateKeyPairSync('ed25519'));
const stranger = pem(generateKeyPairSync('ed25519'));
const SIGNING_KEY = publicKeyOf(maintainer);
/** What each fake download hashes to (SHA-512, base64), by path. */
const FILE_HASHES: Record<string, string> = { '/tmp/u': 'c2lnbmVkIGZpbGU=', '/tmp/swapped': 'b3RoZXIgZmlsZQ==' };
/** The wall clock of every run here, and the signed expiry of a fresh feed a week after it. */
const NOW = Date.parse('2026-12-07T00:00:00.000Z');
const FRESH_UNTIL = '2026-12-14T00:00:00.000Z';

/** electron-updater's autoUpdater stand-in: a real emitter plus the calls the wiring makes. */
function fakeUpdater(check: () => Promise<unknown> = async () => null) {
  const emitter = new EventEmitter();
  const updater = Object.assign(emitter, {
    autoDownload: true,
    autoInstallOnAppQuit: true,
    allowDowngrade: true,
    currentVersion: { version: '1.2.0' },
    logger: null as Updater['logger'],
    setFeedURL: vi.fn(),
    checkForUpdates: vi.fn(check),
    downloadUpdate: vi.fn(async () => ['/tmp/u']),
    quitAndInstall: vi.fn(),
  });
  return { updater, asUpdater: updater as unknown as Updater };
}

/** Update metadata as electron-updater parses latest.yml, signed by `by` (the maintainer unless told). */
function info(version: string, by: string | null = maintainer, expires: string | null = FRESH_UNTIL): UpdateInfo {
  const unsigned = {
    version,
    ...(expires === null ? {} : { lanPartyExpires: expires }),
    files: [{ url: `lan-party-${version}.AppImage`, sha512: FILE_HASHES['/tmp/u']!, size: 1000 }],
    path: `lan-party-${version}.AppImage`,
    sha512: FILE_HASHES['/tmp/u']!,
    releaseDate: '2026-12-04T00:00:00.000Z',
  };
  return by === null ? unsigned : ({ ...unsigned, lanPartySignature: signUpdateInfo(unsigned, by) } as UpdateInfo);
}
const downloaded = (version: string, file = '/tmp/u'): UpdateDownloadedEvent => ({
  ...info(version),
  downloadedFile: file,
});

function setup(overrides: Partial<UpdateOptions> = {}, fake = fakeUpdater()) {
  const statuses: UpdateStatus[] = [];
  let installer: (() => Promise<void>) | null = null;
  let quitCheck: (() => Promise<void>) | null = null;
  const hashes = { ...FILE_HASHES };
  const steps: string[] = [];
  fake.updater.quitAndInstall.mockImplementation(() => void steps.push('quitAndInstall'));
  const options: UpdateOptions = {
    isPackaged: true,
    feedUrl: 'https://updates.example.org/lan-party/',
    loadUpdater: vi.fn(async () => fake.asUpdater),
    setStatus: (status) => statuses.push(status),
    setInstaller: (install) => (installer = install),
    beforeInstall: vi.fn(async () => void steps.push('room closed')),
    logger: loggerSpy(),
    signingKey: SIGNING_KEY,
    hashFile: async (path) => hashes[path] ?? '',
    setQuitCheck: (check) => (quitCheck = check),
    wallClock: () => NOW,
    ...overrides,
  };
  return {
    options,
    statuses,
    steps,
    hashes,
    updater: fake.updater,
    install: () => installer?.(),
    quit: () => quitCheck?.(),
  };
}

describe('updates: off', () => {
  it('a development run never loads the updater or checks', async () => {
    const { options, statuses } = setup({ isPackaged: false });
    expect(await startUpdates(options)).toBe('development');
    expect(options.loadUpdater).not.toHaveBeenCalled();
    expect(statuses).toEqual([]);
  });

  it('a packaged build without a feed never loads the updater or checks', async () => {
    for (const feedUrl of ['', '   ']) {
      const { options, statuses, updater } = setup({ feedUrl });
      expect(await startUpdates(options)).toBe('no-feed');
      expect(options.loadUpdater).not.toHaveBeenCalled();
      expect(updater.checkForUpdates).not.toHaveBeenCalled();
      expect(statuses).toEqual([]);
      expect(vi.mocked(options.logger.info).mock.calls[0]![0]).toContain('LAN_PARTY_UPDATE_URL');
    }
  });
});

describe('updates: with a feed', () => {
  it('sets the feed in code, from the https URL it checked, before the check (never app-update.yml)', async () => {
    const { options, updater } = setup();
    await startUpdates(options);
    expect(updater.setFeedURL).toHaveBeenCalledExactlyOnceWith({ provider: 'generic', url: options.feedUrl });
    expect(updater.setFeedURL.mock.invocationCallOrder[0]).toBeLessThan(
      updater.checkForUpdates.mock.invocationCallOrder[0]!,
    );
  });

  it('checks once at start; nothing downloads, installs on quit or downgrades by itself', async () => {
    const { options, statuses, updater } = setup();
    expect(await startUpdates(options)).toBe('checking');
    expect(updater.checkForUpdates).toHaveBeenCalledOnce();
    expect([updater.autoDownload, updater.autoInstallOnAppQuit, updater.allowDowngrade]).toEqual([false, false, false]);
    expect(statuses).toEqual([{ state: 'idle' }]);
    updater.logger?.info('checking for update');
    expect(options.logger.info).toHaveBeenCalledWith('updater: checking for update');
  });

  it('a signed newer version downloads, is verified, then offered; installing closes the room first', async () => {
    const { options, statuses, updater, install, steps, quit } = setup();
    await startUpdates(options);
    updater.emit('update-available', info('1.3.0'));
    expect(statuses.at(-1)).toEqual({ state: 'downloading', version: '1.3.0' });
    expect(updater.downloadUpdate).toHaveBeenCalledOnce();
    updater.emit('update-downloaded', downloaded('1.3.0'));
    await waitFor(() => statuses.at(-1)?.state === 'ready');
    expect(statuses.at(-1)).toEqual({ state: 'ready', version: '1.3.0' });
    // Install on quit is armed as the app quits, once the file has hashed right again.
    expect(updater.autoInstallOnAppQuit).toBe(false);
    await quit();
    expect(updater.autoInstallOnAppQuit).toBe(true);
    await install();
    expect(steps).toEqual(['room closed', 'quitAndInstall']);
  });

  it('up to date: stays idle', async () => {
    const { options, statuses, updater } = setup();
    await startUpdates(options);
    updater.emit('update-not-available', info('1.2.0'));
    expect(statuses).toEqual([{ state: 'idle' }, { state: 'idle' }]);
  });

  it('a failed check (offline, bad feed) is logged and leaves the app running', async () => {
    const fake = fakeUpdater(async () => {
      throw new Error('net::ERR_NAME_NOT_RESOLVED');
    });
    const { options, statuses } = setup({}, fake);
    expect(await startUpdates(options)).toBe('checking');
    expect(options.logger.warn).toHaveBeenCalledWith('update check failed', expect.any(Error));
    expect(statuses).toEqual([{ state: 'idle' }]);
  });

  it('a download error goes back to idle, but never takes back a downloaded update', async () => {
    const { options, statuses, updater } = setup();
    await startUpdates(options);
    updater.emit('update-available', info('1.3.0'));
    updater.emit('error', new Error('sha512 mismatch'));
    expect(statuses.at(-1)).toEqual({ state: 'idle' });
    updater.emit('update-downloaded', downloaded('1.3.0'));
    await waitFor(() => statuses.at(-1)?.state === 'ready');
    updater.emit('error', new Error('later hiccup'));
    expect(statuses.at(-1)).toEqual({ state: 'ready', version: '1.3.0' });
  });
});

describe('updates: refused', () => {
  it('an http (or any non-https) feed: never loads the updater', async () => {
    for (const feedUrl of ['http://updates.example.org/lan-party/', 'ftp://x/', 'updates.example.org']) {
      const { options, updater } = setup({ feedUrl });
      expect(await startUpdates(options)).toBe('insecure-feed');
      expect(options.loadUpdater).not.toHaveBeenCalled();
      expect(updater.checkForUpdates).not.toHaveBeenCalled();
      expect(vi.mocked(options.logger.warn).mock.calls[0]![0]).toContain('not https');
    }
  });

  it('a build without a signing key: never loads the updater', async () => {
    const { options } = setup({ signingKey: '' });
    expect(await startUpdates(options)).toBe('no-signing-key');
    expect(options.loadUpdater).not.toHaveBeenCalled();
  });

  async function offered(update: UpdateInfo) {
    const run = setup();
    await startUpdates(run.options);
    run.updater.emit('update-available', update);
    return run;
  }

  it('metadata with a bad signature, no signature or one by another key is never downloaded', async () => {
    const tampered = { ...info('1.3.0'), files: [{ url: 'evil.AppImage', sha512: 'ZXZpbA==', size: 5 }] };
    for (const update of [tampered, info('1.3.0', null), info('1.3.0', stranger)]) {
      const { updater, statuses, options } = await offered(update);
      expect(updater.downloadUpdate).not.toHaveBeenCalled();
      expect(statuses.at(-1)).toEqual({ state: 'idle' });
      expect(vi.mocked(options.logger.warn).mock.calls.at(-1)![0]).toMatch(/refused: its metadata is not signed/);
    }
  });

  it('an older or the same version, even signed, is never downloaded (no downgrade)', async () => {
    for (const version of ['1.1.9', '1.2.0', '1.2.0-beta.1', 'not-a-version']) {
      const { updater, options } = await offered(info(version));
      expect(updater.downloadUpdate).not.toHaveBeenCalled();
      expect(vi.mocked(options.logger.warn).mock.calls.at(-1)![0]).toContain(`update ${version} refused`);
    }
  });

  it('a download that does not hash to the signed SHA-512 is never offered or installed', async () => {
    const { updater, statuses, options, install, steps } = await offered(info('1.3.0'));
    updater.emit('update-downloaded', downloaded('1.3.0', '/tmp/swapped'));
    await waitFor(() => vi.mocked(options.logger.warn).mock.calls.length > 0);
    expect(vi.mocked(options.logger.warn).mock.calls.at(-1)![0]).toContain('does not hash to a signed SHA-512');
    expect(statuses.some((status) => status.state === 'ready')).toBe(false);
    expect(updater.autoInstallOnAppQuit).toBe(false);
    await expect(install()).rejects.toThrow('no verified update');
    expect(steps).toEqual([]);
  });

  it('a signed release replayed after its signed expiry (or signed with none) is never downloaded', async () => {
    // 1.3.0 is newer than the installed 1.2.0 and properly signed, but its feed expired: the live feed moved on.
    for (const update of [info('1.3.0', maintainer, '2026-12-01T00:00:00.000Z'), info('1.3.0', maintainer, null)]) {
      const { updater, statuses, options } = await offered(update);
      expect(updater.downloadUpdate).not.toHaveBeenCalled();
      expect(statuses.at(-1)).toEqual({ state: 'idle' });
      expect(vi.mocked(options.logger.warn).mock.calls.at(-1)![0]).toMatch(
        /refused: its (signed metadata expired|metadata carries no signed expiry)/,
      );
    }
    // The expiry is signed: pushing it later breaks the signature.
    const extended = { ...info('1.3.0', maintainer, '2026-12-01T00:00:00.000Z'), lanPartyExpires: FRESH_UNTIL };
    const { updater, options } = await offered(extended);
    expect(updater.downloadUpdate).not.toHaveBeenCalled();
    expect(vi.mocked(options.logger.warn).mock.calls.at(-1)![0]).toMatch(/refused: its metadata is not signed/);
  });

  it('a download swapped after it was verified is hashed again and never run, by the restart or on quit', async () => {
    const { updater, statuses, options, install, steps, quit, hashes } = await offered(info('1.3.0'));
    updater.emit('update-downloaded', downloaded('1.3.0'));
    await waitFor(() => statuses.at(-1)?.state === 'ready');
    hashes['/tmp/u'] = FILE_HASHES['/tmp/swapped']!; // the cached installer is replaced
    await quit();
    expect(updater.autoInstallOnAppQuit).toBe(false);
    await expect(install()).rejects.toThrow('no verified update');
    expect(updater.quitAndInstall).not.toHaveBeenCalled();
    expect(steps).toEqual([]);
    expect(statuses.at(-1)).toEqual({ state: 'idle' });
    expect(vi.mocked(options.logger.warn).mock.calls.at(-1)![0]).toContain('changed after it was verified');
  });

  it('the restart hashes the download again just before quitAndInstall', async () => {
    const { updater, statuses, install, steps, hashes } = await offered(info('1.3.0'));
    updater.emit('update-downloaded', downloaded('1.3.0'));
    await waitFor(() => statuses.at(-1)?.state === 'ready');
    hashes['/tmp/u'] = FILE_HASHES['/tmp/swapped']!;
    await expect(install()).rejects.toThrow('changed after it was verified');
    expect(steps).toEqual(['room closed']);
    expect(updater.quitAndInstall).not.toHaveBeenCalled();
  });

  it('a downloaded event for a version that was never approved is refused', async () => {
    const { updater, statuses, options } = await offered(info('1.1.0'));
    updater.emit('update-downloaded', downloaded('1.1.0'));
    expect(vi.mocked(options.logger.warn).mock.calls.at(-1)![0]).toContain('not the approved update');
    expect(statuses.some((status) => status.state === 'ready')).toBe(false);
  });
});
