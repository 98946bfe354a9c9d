import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../main/settings/defaultSettings';
import { SETTINGS_FILE_NAME, parseSettingsFile, serializeSettingsFile } from '../../../main/settings/settingsFile';
import { createSettingsStore } from '../../../main/settings/settingsStore';
import { internetRoomsEnabled, type InternetSettings } from '../../../shared/ipc/schemas/internetSettings';
import { settingsPatchSchema } from '../../../shared/ipc/schemas/settings';
import { loggerSpy } from '../ipc/loggerSpy';

const configured: InternetSettings = {
  rendezvousUrl: 'wss://rdv.example.org/rendezvous/v1',
  turn: { mode: 'static', server: 'turn.example.org:3478', username: 'ada', password: 'hunter22' },
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lan-party-internet-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('internet room settings', () => {
  it('are off (no rendezvous) by default and in files from before them', () => {
    const defaults = defaultSettings('ada');
    expect(internetRoomsEnabled(defaults.internet)).toBe(false);
    const old = parseSettingsFile(JSON.stringify({ version: 1, playerName: 'Ada', playerColor: '#ff5c8a' }), defaults);
    expect(old.warnings).toEqual([]);
    expect(old.settings.internet).toBeUndefined();
  });

  it('round-trip through the file', () => {
    const settings = { ...defaultSettings('ada'), internet: configured };
    const parsed = parseSettingsFile(serializeSettingsFile(settings), defaultSettings('ada'));
    expect(parsed).toMatchObject({ warnings: [], unreadable: false, settings: { internet: configured } });
    expect(internetRoomsEnabled(parsed.settings.internet)).toBe(true);
  });

  it('a damaged block falls back to off with a warning, and nothing else is lost', () => {
    const text = JSON.stringify({
      version: 1,
      playerName: 'Ada',
      playerColor: '#5b8cff',
      theme: 'dark',
      internet: { rendezvousUrl: 'http://not-ws', turn: { mode: 'static', server: 'x' } },
    });
    const parsed = parseSettingsFile(text, defaultSettings('ada'));
    expect(parsed.unreadable).toBe(false);
    expect(parsed.warnings).toEqual([expect.stringMatching(/internet room settings/)]);
    expect(parsed.settings).toMatchObject({ playerName: 'Ada', playerColor: '#5b8cff', theme: 'dark' });
    expect(parsed.settings.internet).toBeUndefined();
  });

  it('the IPC patch takes a whole block and refuses bad addresses, ports and missing credentials', () => {
    expect(settingsPatchSchema.safeParse({ internet: configured }).success).toBe(true);
    expect(
      settingsPatchSchema.safeParse({ internet: { rendezvousUrl: null, turn: { mode: 'shared-secret' } } }).success,
    ).toBe(true);
    const bad = (internet: unknown) => settingsPatchSchema.safeParse({ internet }).success;
    expect(bad({ ...configured, rendezvousUrl: 'https://rdv.example.org' })).toBe(false);
    expect(bad({ ...configured, rendezvousUrl: 'wss://rdv.example.org/?x=1' })).toBe(false);
    expect(bad({ ...configured, turn: { ...configured.turn, server: 'turn.example.org:70000' } })).toBe(false);
    expect(bad({ ...configured, turn: { ...configured.turn, server: 'turn.example.org' } })).toBe(false);
    expect(
      bad({ ...configured, turn: { mode: 'static', server: 'turn.example.org:3478', username: 'a', password: '' } }),
    ).toBe(false);
    expect(bad({ ...configured, turn: { mode: 'shared-secret', server: 'x:1' } })).toBe(false);
    expect(bad({ rendezvousUrl: 'wss://[::1]:8787/rendezvous/v1', turn: { mode: 'none' } })).toBe(true);
  });

  it('the store saves them, a new store reads them back, and other settings stay', async () => {
    const logger = loggerSpy();
    const store = createSettingsStore({ dir, osUserName: 'ada', logger });
    await store.update({ theme: 'light' });
    const saved = await store.update({ internet: configured });
    expect(saved).toMatchObject({ theme: 'light', internet: configured });
    const file = JSON.parse(await readFile(join(dir, SETTINGS_FILE_NAME), 'utf8'));
    expect(file.internet).toEqual(configured);
    const again = createSettingsStore({ dir, osUserName: 'ada', logger });
    expect(await again.get()).toMatchObject({ theme: 'light', internet: configured });
  });

  it('a store loading a damaged block keeps the rest of the file and warns', async () => {
    await writeFile(
      join(dir, SETTINGS_FILE_NAME),
      JSON.stringify({ version: 1, playerName: 'Ada', playerColor: '#5b8cff', internet: 42 }),
    );
    const logger = loggerSpy();
    const store = createSettingsStore({ dir, osUserName: 'ada', logger });
    const loaded = await store.get();
    expect(loaded).toMatchObject({ playerName: 'Ada', playerColor: '#5b8cff' });
    expect(loaded.internet).toBeUndefined();
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/invalid internet room settings/));
  });
});
