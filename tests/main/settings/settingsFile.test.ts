import { describe, expect, it } from 'vitest';
import { parseSettingsFile, serializeSettingsFile, SETTINGS_FILE_VERSION } from '../../../main/settings/settingsFile';

const defaults = { playerName: 'ada', playerColor: '#3ddc97', onboarded: false, theme: 'system' } as const;

describe('settings file format', () => {
  it('round-trips settings with a version field', () => {
    const text = serializeSettingsFile({ playerName: 'Nova', playerColor: '#a77dff', onboarded: true, theme: 'dark' });
    expect(JSON.parse(text)).toEqual({
      version: SETTINGS_FILE_VERSION,
      playerName: 'Nova',
      playerColor: '#a77dff',
      onboarded: true,
      theme: 'dark',
    });
    expect(parseSettingsFile(text, defaults)).toEqual({
      settings: { playerName: 'Nova', playerColor: '#a77dff', onboarded: true, theme: 'dark' },
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
    expect(parsed.settings).toEqual({ playerName: 'Nova', playerColor: '#3ddc97', onboarded: true, theme: 'system' });
    expect(parsed.warnings).toEqual(['settings file has an invalid playerColor; using the default']);
    const all = parseSettingsFile(
      JSON.stringify({ version: 1, playerName: '', playerColor: 5, onboarded: 'yes', theme: 'sepia' }),
      defaults,
    );
    expect(all.settings).toEqual({ ...defaults, onboarded: true });
    expect(all.warnings).toHaveLength(4);
    expect(all.warnings).toContain('settings file has an invalid theme; using the default');
    expect(all.unreadable).toBe(false);
  });

  it('re-normalises stored values the way the contract does', () => {
    const parsed = parseSettingsFile(
      JSON.stringify({ version: 1, playerName: '  Nova ', playerColor: '#A77DFF' }),
      defaults,
    );
    expect(parsed.settings).toEqual({ playerName: 'Nova', playerColor: '#a77dff', onboarded: true, theme: 'system' });
  });

  it('reads the first-run flag, and files written before it existed count as onboarded', () => {
    const flag = (onboarded: unknown) =>
      parseSettingsFile(JSON.stringify({ version: 1, playerName: 'N', playerColor: '#a77dff', onboarded }), defaults);
    expect(flag(false).settings.onboarded).toBe(false);
    expect(flag(true).settings.onboarded).toBe(true);
    expect(flag(undefined)).toMatchObject({ settings: { onboarded: true }, warnings: [] });
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
