import { describe, expect, it } from 'vitest';
import { parseSettingsFile, serializeSettingsFile, SETTINGS_FILE_VERSION } from '../../../main/settings/settingsFile';

const defaults = {
  playerName: 'ada',
  playerColor: '#3ddc97',
  onboarded: false,
  notifications: true,
  theme: 'system',
} as const;

describe('settings file format', () => {
  it('reads a colour since retired from the palette as its replacement, without a warning', () => {
    const text = JSON.stringify({ version: SETTINGS_FILE_VERSION, playerName: 'Nova', playerColor: '#FF5C8A' });
    const parsed = parseSettingsFile(text, defaults);
    expect(parsed.settings.playerColor).toBe('#a3e048');
    expect(parsed.warnings).toEqual([]);
  });

  it('round-trips settings with a version field', () => {
    const text = serializeSettingsFile({
      playerName: 'Nova',
      playerColor: '#a77dff',
      onboarded: true,
      notifications: true,
      theme: 'dark',
    });
    expect(JSON.parse(text)).toEqual({
      version: SETTINGS_FILE_VERSION,
      playerName: 'Nova',
      playerColor: '#a77dff',
      onboarded: true,
      notifications: true,
      theme: 'dark',
    });
    expect(parseSettingsFile(text, defaults)).toEqual({
      settings: { playerName: 'Nova', playerColor: '#a77dff', onboarded: true, notifications: true, theme: 'dark' },
      lanServers: [],
      warnings: [],
      unreadable: false,
    });
  });

  it.each([['{not json'], [''], ['[]'], ['null'], ['"text"']])('falls back to defaults for %j', (text) => {
    const parsed = parseSettingsFile(text, defaults);
    expect(parsed.settings).toEqual(defaults);
    expect(parsed.unreadable).toBe(true);
    expect(parsed.warnings).toHaveLength(1);
  });

  it('falls back for a missing or unknown version', () => {
    for (const version of [undefined, 0, 2, '1']) {
      const parsed = parseSettingsFile(
        JSON.stringify({ version, playerName: 'Nova', playerColor: '#a77dff' }),
        defaults,
      );
      expect(parsed.settings).toEqual(defaults);
      expect(parsed.warnings[0]).toMatch(/version/);
    }
  });

  it('keeps valid fields and replaces invalid ones, field by field', () => {
    const parsed = parseSettingsFile(JSON.stringify({ version: 1, playerName: 'Nova', playerColor: 'red' }), defaults);
    expect(parsed.settings).toEqual({
      playerName: 'Nova',
      playerColor: '#3ddc97',
      onboarded: true,
      notifications: true,
      theme: 'system',
    });
    expect(parsed.warnings).toEqual(['settings file has an invalid playerColor; using the default']);
    const all = parseSettingsFile(
      JSON.stringify({ version: 1, playerName: '', playerColor: 5, onboarded: 'yes', theme: 'sepia' }),
      defaults,
    );
    expect(all.settings).toEqual({ ...defaults, onboarded: true, notifications: true });
    expect(all.warnings).toHaveLength(4);
    expect(all.warnings).toContain('settings file has an invalid theme; using the default');
    expect(all.unreadable).toBe(false);
  });

  it('keeps an older file’s name that is over the limit cut where rooms cut it, and refuses a hidden character', () => {
    const parse = (playerName: unknown) =>
      parseSettingsFile(JSON.stringify({ version: 1, playerName, playerColor: '#a77dff' }), defaults);
    // 20 emoji were 20 code points (the old limit was 24 of them) but 40 UTF-16 units: rooms showed the first 12.
    expect(parse('🎮'.repeat(20))).toMatchObject({ settings: { playerName: '🎮'.repeat(12) }, warnings: [] });
    expect(parse('x'.repeat(5000)).settings.playerName).toBe('x'.repeat(24));
    const hidden = parse('Nova\u202e');
    expect(hidden.settings.playerName).toBe(defaults.playerName);
    expect(hidden.warnings).toEqual(['settings file has an invalid playerName; using the default']);
  });

  it('re-normalises stored values the way the contract does', () => {
    const parsed = parseSettingsFile(
      JSON.stringify({ version: 1, playerName: '  Nova ', playerColor: '#A77DFF' }),
      defaults,
    );
    expect(parsed.settings).toEqual({
      playerName: 'Nova',
      playerColor: '#a77dff',
      onboarded: true,
      notifications: true,
      theme: 'system',
    });
  });

  it('reads the first-run flag, and files written before it existed count as onboarded', () => {
    const flag = (onboarded: unknown) =>
      parseSettingsFile(JSON.stringify({ version: 1, playerName: 'N', playerColor: '#a77dff', onboarded }), defaults);
    expect(flag(false).settings.onboarded).toBe(false);
    expect(flag(true).settings.onboarded).toBe(true);
    expect(flag(undefined)).toMatchObject({ settings: { onboarded: true, notifications: true }, warnings: [] });
  });

  it('reads the notifications flag; files from before it keep the default, a bad value warns', () => {
    const flag = (notifications: unknown) =>
      parseSettingsFile(
        JSON.stringify({ version: 1, playerName: 'N', playerColor: '#a77dff', onboarded: true, notifications }),
        { ...defaults, notifications: true },
      );
    expect(flag(false)).toMatchObject({ settings: { notifications: false }, warnings: [] });
    expect(flag(true)).toMatchObject({ settings: { notifications: true }, warnings: [] });
    expect(flag(undefined)).toMatchObject({ settings: { notifications: true }, warnings: [] });
    expect(flag('off')).toMatchObject({
      settings: { notifications: true },
      warnings: ['settings file has an invalid notifications flag; using the default'],
      unreadable: false,
    });
  });
});

describe('storage warnings', () => {
  it('name the reason in words', async () => {
    const { describeFsFailure, saveWarning } = await import('../../../main/settings/storageWarning');
    const fail = (code: string) => Object.assign(new Error(code), { code });
    expect(describeFsFailure(fail('EISDIR'))).toBe('it is a folder, not a file');
    expect(describeFsFailure(fail('EACCES'))).toBe('permission denied');
    expect(describeFsFailure(fail('EROFS'))).toBe('the disk is read-only');
    expect(describeFsFailure(fail('ENOSPC'))).toBe('the disk is full');
    expect(describeFsFailure(fail('EWHATEVER'))).toBe('EWHATEVER');
    expect(describeFsFailure('odd')).toBe('odd');
    expect(saveWarning('/x/settings.json', fail('EACCES'))).toBe(
      'Your settings could not be saved to /x/settings.json (permission denied). They are kept until LAN Party closes.',
    );
  });

  it('reads the theme, and files written before there was a choice follow the OS', () => {
    const theme = (value: unknown) =>
      parseSettingsFile(
        JSON.stringify({ version: 1, playerName: 'N', playerColor: '#a77dff', onboarded: true, theme: value }),
        { ...defaults, theme: 'system' },
      );
    expect(theme('light').settings.theme).toBe('light');
    expect(theme('dark').settings.theme).toBe('dark');
    expect(theme('system').settings.theme).toBe('system');
    expect(theme(undefined)).toMatchObject({ settings: { theme: 'system' }, warnings: [] });
    expect(theme('LIGHT')).toMatchObject({ settings: { theme: 'system' }, unreadable: false });
    expect(theme(1).warnings).toEqual(['settings file has an invalid theme; using the default']);
  });
});

describe('servers added to the LAN list by address', () => {
  const base = { version: SETTINGS_FILE_VERSION, ...defaults };

  it('round-trip, and are left out of the file while there are none', () => {
    const servers = [
      { host: '100.64.0.7', port: 9998 },
      { host: 'party-pc', port: 4000 },
    ];
    const text = serializeSettingsFile(defaults, servers);
    expect(parseSettingsFile(text, defaults)).toMatchObject({ lanServers: servers, warnings: [] });
    expect(JSON.parse(serializeSettingsFile(defaults))).not.toHaveProperty('lanServers');
  });

  it('drop a damaged entry with a warning and keep everything else', () => {
    const text = JSON.stringify({
      ...base,
      playerName: 'Nova',
      lanServers: [{ host: '100.64.0.7', port: 9998 }, { host: 'bad host', port: 1 }, { host: 'x', port: 70000 }, 7],
    });
    const parsed = parseSettingsFile(text, defaults);
    expect(parsed.settings.playerName).toBe('Nova');
    expect(parsed.lanServers).toEqual([{ host: '100.64.0.7', port: 9998 }]);
    expect(parsed.warnings).toEqual([
      'settings file has an invalid lanServers entry #2; dropped it',
      'settings file has an invalid lanServers entry #3; dropped it',
      'settings file has an invalid lanServers entry #4; dropped it',
    ]);
    expect(parsed.unreadable).toBe(false);
  });

  it('start empty, with a warning, when the list is not a list', () => {
    const parsed = parseSettingsFile(JSON.stringify({ ...base, lanServers: { host: 'x' } }), defaults);
    expect(parsed).toMatchObject({ lanServers: [], unreadable: false });
    expect(parsed.warnings).toEqual(['settings file has an invalid lanServers list; starting with none']);
  });
});
