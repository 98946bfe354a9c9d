import { describe, expect, it } from 'vitest';
import { isBackKey, type BackKeyEvent } from '../../../renderer/src/logic/backKey';

const plain: BackKeyEvent = {
  key: 'Escape',
  defaultPrevented: false,
  isComposing: false,
  repeat: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
};

describe('isBackKey', () => {
  it('takes a plain Escape as back', () => {
    expect(isBackKey(plain)).toBe(true);
  });

  it('ignores other keys', () => {
    expect(isBackKey({ ...plain, key: 'Enter' })).toBe(false);
    expect(isBackKey({ ...plain, key: 'Backspace' })).toBe(false);
  });

  it('ignores an Escape something else handled, an input method used, or a held key repeats', () => {
    expect(isBackKey({ ...plain, defaultPrevented: true })).toBe(false);
    expect(isBackKey({ ...plain, isComposing: true })).toBe(false);
    expect(isBackKey({ ...plain, repeat: true })).toBe(false);
  });

  it('ignores Escape with a modifier', () => {
    for (const modifier of ['altKey', 'ctrlKey', 'metaKey', 'shiftKey'] as const) {
      expect(isBackKey({ ...plain, [modifier]: true })).toBe(false);
    }
  });
});
