import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../../main/base/logger';
import { createSettingsStore, type SettingsStore } from '../../../../main/settings/settingsStore';
import { SETTINGS_FILE_NAME } from '../../../../main/settings/settingsFile';
import { followThemeSetting, type ThemeSourceTarget } from '../../../../main/shell/desktop/followTheme';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lan-party-theme-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const store = () => createSettingsStore({ dir, osUserName: 'ada', logger: silentLogger });

describe('followThemeSetting', () => {
  it('sets themeSource from the stored setting, then follows every change until stopped', async () => {
    await writeFile(
      join(dir, SETTINGS_FILE_NAME),
      JSON.stringify({ version: 1, playerName: 'Ada', playerColor: '#3ddc97', onboarded: true, theme: 'dark' }),
    );
    const target: ThemeSourceTarget = { themeSource: 'system' };
    const settings = store();
    const stop = followThemeSetting(target, settings, silentLogger);
    await vi.waitFor(() => expect(target.themeSource).toBe('dark'));
    await settings.update({ theme: 'light' });
    expect(target.themeSource).toBe('light');
    await settings.update({ theme: 'system' });
    expect(target.themeSource).toBe('system');
    stop();
    await settings.update({ theme: 'dark' });
    expect(target.themeSource).toBe('system');
  });

  it('a settings file from before the choice follows the OS', async () => {
    await writeFile(
      join(dir, SETTINGS_FILE_NAME),
      JSON.stringify({ version: 1, playerName: 'Ada', playerColor: '#3ddc97', onboarded: true }),
    );
    const target: ThemeSourceTarget = { themeSource: 'dark' };
    followThemeSetting(target, store(), silentLogger);
    await vi.waitFor(() => expect(target.themeSource).toBe('system'));
  });

  it('logs, and leaves the theme alone, when the settings cannot be read', async () => {
    const warn = vi.fn();
    const broken: SettingsStore = {
      filePath: 'x',
      get: () => Promise.reject(new Error('disk gone')),
      update: () => Promise.reject(new Error('disk gone')),
      onChange: () => () => {},
      getLanServers: () => Promise.reject(new Error('disk gone')),
      setLanServers: () => Promise.reject(new Error('disk gone')),
    };
    const target: ThemeSourceTarget = { themeSource: 'light' };
    followThemeSetting(target, broken, { ...silentLogger, warn });
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith('could not read the theme setting', expect.any(Error)));
    expect(target.themeSource).toBe('light');
  });
});
