import { EventEmitter } from 'node:events';
import type { UpdateDownloadedEvent, UpdateInfo } from 'electron-updater';
import { describe, expect, it, vi } from 'vitest';
import type { UpdateStatus } from '../../../../shared/ipc/schemas/shell';
import { startUpdates, type Updater, type UpdateOptions } from '../../../../main/shell/desktop/updates';
import { loggerSpy } from '../../ipc/loggerSpy';

/** electron-updater's autoUpdater stand-in: a real emitter plus the calls the wiring makes. */
function fakeUpdater(check: () => Promise<unknown> = async () => null) {
  const emitter = new EventEmitter();
  const updater = Object.assign(emitter, {
    autoDownload: false,
    logger: null as Updater['logger'],
    checkForUpdates: vi.fn(check),
    quitAndInstall: vi.fn(),
  });
  return { updater, asUpdater: updater as unknown as Updater };
}

const info = (version: string): UpdateInfo => ({ version, files: [], path: '', sha512: '', releaseDate: '' });
const downloaded = (version: string): UpdateDownloadedEvent => ({ ...info(version), downloadedFile: '/tmp/u' });

function setup(overrides: Partial<UpdateOptions> = {}, fake = fakeUpdater()) {
  const statuses: UpdateStatus[] = [];
  let installer: (() => Promise<void>) | null = null;
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
    ...overrides,
  };
  return { options, statuses, steps, updater: fake.updater, install: () => installer?.() };
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
  it('checks once at start with background download on', async () => {
    const { options, statuses, updater } = setup();
    expect(await startUpdates(options)).toBe('checking');
    expect(updater.checkForUpdates).toHaveBeenCalledOnce();
    expect(updater.autoDownload).toBe(true);
    expect(statuses).toEqual([{ state: 'idle' }]);
    updater.logger?.info('checking for update');
    expect(options.logger.info).toHaveBeenCalledWith('updater: checking for update');
  });

  it('a newer version downloads, then is offered; installing closes the room first', async () => {
    const { options, statuses, updater, install, steps } = setup();
    await startUpdates(options);
    updater.emit('update-available', info('1.3.0'));
    expect(statuses.at(-1)).toEqual({ state: 'downloading', version: '1.3.0' });
    updater.emit('update-downloaded', downloaded('1.3.0'));
    expect(statuses.at(-1)).toEqual({ state: 'ready', version: '1.3.0' });
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
    updater.emit('error', new Error('later hiccup'));
    expect(statuses.at(-1)).toEqual({ state: 'ready', version: '1.3.0' });
  });
});
