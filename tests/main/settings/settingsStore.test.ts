import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultSettings } from '../../../main/settings/defaultSettings';
import { SETTINGS_FILE_NAME } from '../../../main/settings/settingsFile';
import { createSettingsStore } from '../../../main/settings/settingsStore';
import { loggerSpy } from '../ipc/loggerSpy';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lan-party-settings-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function store(folder = dir, now?: () => Date) {
  const logger = loggerSpy();
  return { store: createSettingsStore({ dir: folder, osUserName: 'ada', logger, ...(now ? { now } : {}) }), logger };
}

describe('settings store', () => {
  it('starts from defaults without writing anything', async () => {
    const { store: s, logger } = store();
    expect(await s.get()).toEqual(defaultSettings('ada'));
    expect(await readdir(dir)).toEqual([]);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('persists an update to settings.json in the injected folder, readable by a new store', async () => {
    const { store: s } = store();
    const saved = await s.update({ playerName: 'Nova', playerColor: '#a77dff' });
    expect(saved).toEqual({
      playerName: 'Nova',
      playerColor: '#a77dff',
      onboarded: false,
      notifications: true,
      theme: 'system',
    });
    expect(s.filePath).toBe(join(dir, SETTINGS_FILE_NAME));
    expect(JSON.parse(await readFile(s.filePath, 'utf8'))).toEqual({ version: 1, ...saved });
    expect(await store().store.get()).toEqual(saved);
  });

  it('merges partial updates and ignores undefined fields', async () => {
    const { store: s } = store();
    await s.update({ playerName: 'Nova' });
    expect(await s.update({ playerColor: '#a3e048', playerName: undefined })).toEqual({
      playerName: 'Nova',
      playerColor: '#a3e048',
      onboarded: false,
      notifications: true,
      theme: 'system',
    });
    expect(await s.update({ onboarded: true })).toEqual({
      playerName: 'Nova',
      playerColor: '#a3e048',
      onboarded: true,
      notifications: true,
      theme: 'system',
    });
    expect(await s.update({ theme: 'light' })).toMatchObject({ playerName: 'Nova', onboarded: true, theme: 'light' });
    expect(JSON.parse(await readFile(s.filePath, 'utf8'))).toMatchObject({ theme: 'light' });
    expect((await store().store.get()).theme).toBe('light');
  });

  it('notifies listeners on change only, and stops after unsubscribe', async () => {
    const { store: s } = store();
    const listener = vi.fn();
    const stop = s.onChange(listener);
    await s.update({ playerName: 'Nova' });
    await s.update({ playerName: 'Nova' });
    stop();
    await s.update({ playerName: 'Other' });
    expect(listener.mock.calls).toEqual([
      [
        {
          playerName: 'Nova',
          playerColor: defaultSettings('ada').playerColor,
          onboarded: false,
          notifications: true,
          theme: 'system',
        },
      ],
    ]);
  });

  it('reports a throwing listener and still notifies the others', async () => {
    const { store: s, logger } = store();
    const listener = vi.fn();
    s.onChange(() => {
      throw new Error('window gone');
    });
    s.onChange(listener);
    await s.update({ playerName: 'Nova' });
    expect(listener).toHaveBeenCalledOnce();
    expect(logger.warn).toHaveBeenCalledExactlyOnceWith('settings listener failed', new Error('window gone'));
  });

  it('does not rewrite the file when nothing changed', async () => {
    const { store: s } = store();
    await s.update(defaultSettings('ada'));
    expect(await readdir(dir)).toEqual([]);
  });

  it('runs overlapping updates one after another', async () => {
    const { store: s } = store();
    const results = await Promise.all([
      s.update({ playerName: 'One' }),
      s.update({ playerColor: '#a3e048' }),
      s.update({ playerName: 'Three' }),
    ]);
    expect(results.map((r) => r.playerName)).toEqual(['One', 'One', 'Three']);
    expect(await store().store.get()).toEqual({
      playerName: 'Three',
      playerColor: '#a3e048',
      onboarded: false,
      notifications: true,
      theme: 'system',
    });
  });

  it('survives a corrupt file: defaults, a warning, and the damaged file kept aside', async () => {
    await writeFile(join(dir, SETTINGS_FILE_NAME), '{"version": 1, "playerName": ');
    const { store: s, logger } = store();
    expect(await s.get()).toEqual(defaultSettings('ada'));
    expect(String(logger.warn.mock.calls[0]?.[0])).toMatch(/not valid JSON/);
    expect(String(logger.warn.mock.calls[1]?.[0])).toMatch(/kept the unreadable settings file as .*corrupt-/);
    expect((await readdir(dir)).sort()).toEqual([expect.stringMatching(/^settings\.json\.corrupt-\d{4}-.*Z$/)]);
    await s.update({ playerName: 'Fresh' });
    expect(await store().store.get()).toMatchObject({ playerName: 'Fresh' });
  });

  it('keeps the valid fields of a partly invalid file, with a warning', async () => {
    await writeFile(
      join(dir, SETTINGS_FILE_NAME),
      JSON.stringify({ version: 1, playerName: 'Nova', playerColor: 'red' }),
    );
    const { store: s, logger } = store();
    expect(await s.get()).toEqual({
      playerName: 'Nova',
      playerColor: defaultSettings('ada').playerColor,
      onboarded: true,
      notifications: true,
      theme: 'system',
    });
    expect(logger.warn).toHaveBeenCalledOnce();
  });

  it('persists the first-run flag, and treats a file from before the flag as onboarded', async () => {
    const { store: s } = store();
    expect((await s.get()).onboarded).toBe(false);
    await s.update({ onboarded: true });
    expect(JSON.parse(await readFile(s.filePath, 'utf8'))).toMatchObject({
      version: 1,
      onboarded: true,
      notifications: true,
      theme: 'system',
    });
    expect((await store().store.get()).onboarded).toBe(true);
    await writeFile(s.filePath, JSON.stringify({ version: 1, playerName: 'Old', playerColor: '#a3e048' }));
    expect(await store().store.get()).toEqual({
      playerName: 'Old',
      playerColor: '#a3e048',
      onboarded: true,
      notifications: true,
      theme: 'system',
    });
  });

  it('turns notifications off and on, persisting each change', async () => {
    const { store: s } = store();
    expect((await s.get()).notifications).toBe(true);
    expect((await s.update({ notifications: false })).notifications).toBe(false);
    expect(JSON.parse(await readFile(s.filePath, 'utf8'))).toMatchObject({ notifications: false });
    expect((await store().store.get()).notifications).toBe(false);
    expect((await s.update({ notifications: true })).notifications).toBe(true);
    expect((await store().store.get()).notifications).toBe(true);
  });

  it('keeps playing with settings in memory when the folder cannot be written, and says where and why', async () => {
    // The "folder" is a file, so mkdir and the write fail.
    const blocker = join(dir, 'not-a-dir');
    await writeFile(blocker, '');
    const { store: s, logger } = store(blocker);
    const listener = vi.fn();
    s.onChange(listener);
    const saved = await s.update({ playerName: 'Nova', onboarded: true });
    expect(saved).toMatchObject({ playerName: 'Nova', onboarded: true });
    expect(saved.storageWarning).toBe(
      `Your settings could not be saved to ${join(blocker, SETTINGS_FILE_NAME)} (part of the path is a file, not a folder). ` +
        'They are kept until LAN Party closes.',
    );
    expect(listener).toHaveBeenCalledWith(saved);
    expect(await s.get()).toEqual(saved);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/cannot save/), expect.anything());
  });

  it('a settings path that is a folder: defaults with a warning, play goes on, the warning names the path', async () => {
    await mkdir(join(dir, SETTINGS_FILE_NAME));
    const { store: s } = store();
    const first = await s.get();
    expect(first).toMatchObject({
      onboarded: false,
      storageWarning: expect.stringMatching(/could not be read from .*folder/),
    });
    const saved = await s.update({ playerName: 'Nova', onboarded: true });
    expect(saved).toMatchObject({ playerName: 'Nova', onboarded: true });
    expect(saved.storageWarning).toMatch(
      new RegExp(`could not be saved to ${join(dir, SETTINGS_FILE_NAME)} \\(it is a folder`),
    );
  });

  it('clears the warning once a save works again', async () => {
    await mkdir(join(dir, SETTINGS_FILE_NAME));
    const { store: s } = store();
    expect((await s.update({ playerName: 'Nova' })).storageWarning).toMatch(/it is a folder/);
    await rm(join(dir, SETTINGS_FILE_NAME), { recursive: true });
    expect(await s.update({ playerName: 'Nova 2' })).not.toHaveProperty('storageWarning');
    expect(JSON.parse(await readFile(s.filePath, 'utf8'))).toMatchObject({ playerName: 'Nova 2' });
  });

  it('accepts a file with a UTF-8 byte order mark, as Notepad saves it', async () => {
    await writeFile(
      join(dir, SETTINGS_FILE_NAME),
      `\ufeff${JSON.stringify({ version: 1, playerName: 'Nova', playerColor: '#a77dff', onboarded: true })}`,
    );
    const { store: s, logger } = store();
    expect(await s.get()).toEqual({
      playerName: 'Nova',
      playerColor: '#a77dff',
      onboarded: true,
      notifications: true,
      theme: 'system',
    });
    expect(logger.warn).not.toHaveBeenCalled();
    expect(await readdir(dir)).toEqual([SETTINGS_FILE_NAME]);
  });

  it('backs up each corruption under its own timestamp, never overwriting, keeping the newest three', async () => {
    const at = (n: number) => () => new Date(Date.UTC(2026, 0, 1, 12, 0, n));
    const same = () => new Date(Date.UTC(2026, 0, 1, 12, 0, 9));
    for (const [i, now] of [at(1), at(2), at(3), same, same].entries()) {
      await writeFile(join(dir, SETTINGS_FILE_NAME), `broken ${i}`);
      await store(dir, now).store.get();
    }
    const names = (await readdir(dir)).sort();
    expect(names).toEqual([
      'settings.json.corrupt-2026-01-01T12-00-03-000Z',
      'settings.json.corrupt-2026-01-01T12-00-09-000Z',
      'settings.json.corrupt-2026-01-01T12-00-09-000Z-2',
    ]);
    expect(await readFile(join(dir, names[1]!), 'utf8')).toBe('broken 3');
    expect(await readFile(join(dir, names[2]!), 'utf8')).toBe('broken 4');
  });

  it('rejects an update that breaks the schema with invalid-argument', async () => {
    const { store: s } = store();
    await expect(s.update({ playerName: '' })).rejects.toMatchObject({ code: 'invalid-argument' });
  });
});
