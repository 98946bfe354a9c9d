import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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

function store(folder = dir) {
  const logger = loggerSpy();
  return { store: createSettingsStore({ dir: folder, osUserName: 'ada', logger }), logger };
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
    expect(saved).toEqual({ playerName: 'Nova', playerColor: '#a77dff', onboarded: false, theme: 'system' });
    expect(s.filePath).toBe(join(dir, SETTINGS_FILE_NAME));
    expect(JSON.parse(await readFile(s.filePath, 'utf8'))).toEqual({ version: 1, ...saved });
    expect(await store().store.get()).toEqual(saved);
  });

  it('merges partial updates and ignores undefined fields', async () => {
    const { store: s } = store();
    await s.update({ playerName: 'Nova' });
    expect(await s.update({ playerColor: '#ff5c8a', playerName: undefined })).toEqual({
      playerName: 'Nova',
      playerColor: '#ff5c8a',
      onboarded: false,
      theme: 'system',
    });
    expect(await s.update({ onboarded: true })).toEqual({
      playerName: 'Nova',
      playerColor: '#ff5c8a',
      onboarded: true,
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
      [{ playerName: 'Nova', playerColor: defaultSettings('ada').playerColor, onboarded: false, theme: 'system' }],
    ]);
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
      s.update({ playerColor: '#ff5c8a' }),
      s.update({ playerName: 'Three' }),
    ]);
    expect(results.map((r) => r.playerName)).toEqual(['One', 'One', 'Three']);
    expect(await store().store.get()).toEqual({
      playerName: 'Three',
      playerColor: '#ff5c8a',
      onboarded: false,
      theme: 'system',
    });
  });

  it('survives a corrupt file: defaults, a warning, and the damaged file kept aside', async () => {
    await writeFile(join(dir, SETTINGS_FILE_NAME), '{"version": 1, "playerName": ');
    const { store: s, logger } = store();
    expect(await s.get()).toEqual(defaultSettings('ada'));
    expect(logger.warn).toHaveBeenCalledOnce();
    expect(String(logger.warn.mock.calls[0]?.[0])).toMatch(/not valid JSON/);
    expect((await readdir(dir)).sort()).toEqual([`${SETTINGS_FILE_NAME}.corrupt`]);
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
      theme: 'system',
    });
    expect((await store().store.get()).onboarded).toBe(true);
    await writeFile(s.filePath, JSON.stringify({ version: 1, playerName: 'Old', playerColor: '#ff5c8a' }));
    expect(await store().store.get()).toEqual({
      playerName: 'Old',
      playerColor: '#ff5c8a',
      onboarded: true,
      theme: 'system',
    });
  });

  it('reports a failed write and keeps the previous settings', async () => {
    // The "folder" is a file, so mkdir and the write fail.
    const blocker = join(dir, 'not-a-dir');
    await writeFile(blocker, '');
    const { store: s } = store(blocker);
    const before = await s.get();
    await expect(s.update({ playerName: 'Nova' })).rejects.toThrow();
    expect(await s.get()).toEqual(before);
    expect(await s.update({ playerColor: before.playerColor })).toEqual(before);
  });

  it('rejects an update that breaks the schema with invalid-argument', async () => {
    const { store: s } = store();
    await expect(s.update({ playerName: '' })).rejects.toMatchObject({ code: 'invalid-argument' });
  });
});
