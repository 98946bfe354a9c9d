import { describe, expect, it } from 'vitest';
import { defaultPlayerName, defaultSettings, FALLBACK_PLAYER_NAME } from '../../../main/settings/defaultSettings';
import { readOsUserName } from '../../../main/settings/osUserName';
import { PLAYER_COLORS, settingsSchema } from '../../../shared/ipc/schemas/settings';

describe('default settings', () => {
  it('uses the OS user name as the player name', () => {
    expect(defaultPlayerName('ada')).toBe('ada');
    expect(defaultPlayerName('  grace hopper ')).toBe('grace hopper');
  });

  it('clips long names to 24 UTF-16 units at a character boundary and strips control characters', () => {
    expect(defaultPlayerName('x'.repeat(40))).toBe('x'.repeat(24));
    expect(defaultPlayerName('bad\u0000name\n')).toBe('badname');
    expect(defaultPlayerName('🎮'.repeat(30))).toBe('🎮'.repeat(12));
    expect(settingsSchema.safeParse(defaultSettings('🎮'.repeat(30))).success).toBe(true);
  });

  it('falls back when the OS gives nothing usable', () => {
    expect(defaultPlayerName('')).toBe(FALLBACK_PLAYER_NAME);
    expect(defaultPlayerName(' \t\u0001 ')).toBe(FALLBACK_PLAYER_NAME);
  });

  it('starts before the first-run step, with notifications on', () => {
    expect(defaultSettings('ada').onboarded).toBe(false);
    expect(defaultSettings('ada').notifications).toBe(true);
  });

  it('starts before the first-run step, following the OS theme', () => {
    expect(defaultSettings('ada').onboarded).toBe(false);
    expect(defaultSettings('ada').theme).toBe('system');
  });

  it('always produces valid settings with a stable palette colour', () => {
    for (const user of ['ada', 'grace', '', 'x'.repeat(99), 'Ünïcødé']) {
      const settings = defaultSettings(user);
      expect(settingsSchema.safeParse(settings).success).toBe(true);
      expect(defaultSettings(user)).toEqual(settings);
    }
    const colours = new Set(
      ['ada', 'grace', 'linus', 'margaret', 'alan', 'barbara'].map((u) => defaultSettings(u).playerColor),
    );
    expect(colours.size).toBeGreaterThan(1);
    expect(PLAYER_COLORS.map((c) => c.hex)).toContain(defaultSettings('ada').playerColor);
  });
});

describe('OS user name', () => {
  it('reads the injected source, and gives an empty name when the OS throws', () => {
    expect(readOsUserName(() => ({ username: 'ada' }))).toBe('ada');
    expect(
      readOsUserName(() => {
        throw new Error('uid has no passwd entry');
      }),
    ).toBe('');
  });
});
