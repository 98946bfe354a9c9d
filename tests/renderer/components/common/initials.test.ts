import { describe, expect, it } from 'vitest';
import { initialsOf } from '../../../../renderer/src/components/common/initials';

describe('avatar initials', () => {
  it.each([
    ['Ada Lovelace', 'AL'],
    ['grace', 'GR'],
    ['  Captain  Nova  ', 'CN'],
    ['a b c', 'AC'],
    ['x', 'X'],
    ['🎮 Gamer', '🎮G'],
    ['', '?'],
    ['   ', '?'],
  ])('%j → %j', (name, expected) => {
    expect(initialsOf(name)).toBe(expected);
  });
});
