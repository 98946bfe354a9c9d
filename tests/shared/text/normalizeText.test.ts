import { describe, expect, it } from 'vitest';
import { clipToUnits, hasHiddenCharacters, hasVisibleText, normalizeText } from '../../../shared/text/normalizeText';
import { normalTextSchema, normalizedTextSchema } from '../../../shared/text/textSchema';

describe('normalizeText', () => {
  it.each([
    ['fullwidth and styled letters become plain', 'Ｈａｎａ 𝐁𝐨𝐛', 'Hana Bob'],
    ['NBSP and other spaces become one plain space', 'Ada\u00a0\u2003 Lovelace', 'Ada Lovelace'],
    ['tabs, newlines and separators collapse', ' gg\n\t wp\u2028! ', 'gg wp !'],
    ['bidi overrides are removed', 'hi\u202egnp.exe', 'hignp.exe'],
    ['zero-width characters are removed', 'Al\u200bi\u200dce\ufeff', 'Alice'],
    ['controls are removed', 'Ada\u0000\u0007\u007f', 'Ada'],
    ['Hangul fillers are removed', '\u3164Ada\u115f\u1160\uffa0', 'Ada'],
    ['the soft hyphen is removed', 'Ad\u00ada', 'Ada'],
    ['a pile of combining marks is cut to three', 'x\u0301\u0302\u0303\u0304\u0305', 'x\u0301\u0302\u0303'],
    ['a space left by a removed character collapses', 'a \u200b b', 'a b'],
    ['decomposed letters compose', 'Zoe\u0308', 'Zoë'],
  ])('%s', (_what, input, expected) => {
    expect(normalizeText(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const input of ['Ｈａｎａ', 'a \u200b b', 'e\u200b\u0301', ' x\u0301\u0301\u0301\u0301 ', 'ﷺ', '\u2800']) {
      const once = normalizeText(input);
      expect(normalizeText(once)).toBe(once);
    }
  });

  it('tells invisible text from visible text', () => {
    for (const blank of ['', ' ', '\u2800', '\u0301']) expect(hasVisibleText(normalizeText(blank))).toBe(false);
    for (const hidden of ['\u200b', '\u3164', '\u202e', '\u2060\u180e']) expect(normalizeText(hidden)).toBe('');
    expect(hasVisibleText('Ada')).toBe(true);
    expect(hasVisibleText('🎮')).toBe(true);
  });

  it('finds hidden characters a form should refuse', () => {
    expect(hasHiddenCharacters('Ada')).toBe(false);
    expect(hasHiddenCharacters('Ａda')).toBe(false);
    expect(hasHiddenCharacters('A\u200bda')).toBe(true);
    expect(hasHiddenCharacters('A\u202eda')).toBe(true);
    expect(hasHiddenCharacters('\u3164')).toBe(true);
  });

  it('clips to UTF-16 units without splitting a character', () => {
    expect(clipToUnits('abc', 5)).toBe('abc');
    expect(clipToUnits('🎮🎮🎮', 5)).toBe('🎮🎮');
    expect(clipToUnits('a🎮', 2)).toBe('a');
  });
});

describe('text schemas', () => {
  const name = normalizedTextSchema({ label: 'Name', maxChars: 5 });
  const strict = normalizedTextSchema({ label: 'Name', maxChars: 5, refuseHidden: true });
  const message = (result: { error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

  it('normalises, then bounds the result', () => {
    expect(name.parse('  Ｈａｎａ ')).toBe('Hana');
    expect(name.parse('Ha\u200bna')).toBe('Hana');
    expect(message(name.safeParse('abcdef'))).toBe('Name must be at most 5 characters');
    expect(message(name.safeParse('\u200b\u3164'))).toBe('Name cannot be empty');
    expect(message(name.safeParse('x'.repeat(41)))).toBe('Name is far too long');
    expect(name.safeParse(42).success).toBe(false);
  });

  it('refuses hidden characters with a message where the player types', () => {
    expect(message(strict.safeParse('Ha\u200bna'))).toBe('Name cannot contain control or invisible characters');
    expect(strict.parse(' Hana ')).toBe('Hana');
  });

  it('accepts only text already in normal form from a peer', () => {
    const shown = normalTextSchema({ label: 'room name', maxChars: 5 });
    expect(shown.safeParse('Hana').success).toBe(true);
    for (const bad of ['Ha\u202ena', ' Hana', 'Ｈａｎａ', '\u200b', 'abcdef', 'x'.repeat(100)]) {
      expect(shown.safeParse(bad).success).toBe(false);
    }
  });
});
