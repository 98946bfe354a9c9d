import { describe, expect, it } from 'vitest';
import { PLAYER_COLORS, playerColorSchema, settingsPatchSchema } from '../../../shared/ipc/schemas/settings';
import { playerNameSchema } from '../../../shared/lobby/lobbyMessages';

describe('player name', () => {
  it('trims surrounding whitespace', () => {
    expect(playerNameSchema.parse('  Nova  ')).toBe('Nova');
  });

  it.each([[''], ['   '], ['\t\n']])('rejects the empty name %j', (name) => {
    expect(playerNameSchema.safeParse(name).success).toBe(false);
  });

  it('accepts 24 UTF-16 units and rejects 25, the limit every room clips to (an emoji counts two)', () => {
    expect(playerNameSchema.safeParse('a'.repeat(24)).success).toBe(true);
    expect(playerNameSchema.safeParse('a'.repeat(25)).success).toBe(false);
    expect(playerNameSchema.safeParse('🎮'.repeat(12)).success).toBe(true);
    expect(playerNameSchema.safeParse('🎮'.repeat(13)).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ playerName: '🎮'.repeat(13) }).success).toBe(false);
  });

  it('rejects control characters and non-strings', () => {
    expect(playerNameSchema.safeParse('bad\u0000name').success).toBe(false);
    expect(playerNameSchema.safeParse('bell\u0007').success).toBe(false);
    expect(playerNameSchema.safeParse(42).success).toBe(false);
  });
});

describe('player colour', () => {
  it('accepts every palette colour, normalising case', () => {
    for (const { hex } of PLAYER_COLORS) expect(playerColorSchema.parse(hex.toUpperCase())).toBe(hex);
  });

  it.each([['#123456'], ['red'], ['#fff'], [''], [null]])('rejects %j', (value) => {
    expect(playerColorSchema.safeParse(value).success).toBe(false);
  });

  it('has distinct #rrggbb palette entries with labels', () => {
    const hexes = PLAYER_COLORS.map((c) => c.hex);
    expect(new Set(hexes).size).toBe(hexes.length);
    for (const c of PLAYER_COLORS) {
      expect(c.hex).toMatch(/^#[0-9a-f]{6}$/);
      expect(c.label.length).toBeGreaterThan(0);
    }
  });
});

describe('settings patch', () => {
  it('accepts partial updates', () => {
    expect(settingsPatchSchema.parse({})).toEqual({});
    expect(settingsPatchSchema.parse({ playerName: ' Ada ' })).toEqual({ playerName: 'Ada' });
  });

  it('accepts the first-run flag as a boolean only', () => {
    expect(settingsPatchSchema.parse({ onboarded: true })).toEqual({ onboarded: true });
    expect(settingsPatchSchema.safeParse({ onboarded: 'yes' }).success).toBe(false);
  });

  it('accepts the notifications setting as a boolean only', () => {
    expect(settingsPatchSchema.parse({ notifications: false })).toEqual({ notifications: false });
    expect(settingsPatchSchema.safeParse({ notifications: 'no' }).success).toBe(false);
  });

  it('accepts the three themes only', () => {
    for (const theme of ['system', 'light', 'dark'] as const) {
      expect(settingsPatchSchema.parse({ theme })).toEqual({ theme });
    }
    for (const theme of ['Light', 'auto', '', null, 1]) {
      expect(settingsPatchSchema.safeParse({ theme }).success).toBe(false);
    }
  });

  it('rejects unknown keys so typos fail loudly', () => {
    expect(settingsPatchSchema.safeParse({ playerNmae: 'Ada' }).success).toBe(false);
  });
});
