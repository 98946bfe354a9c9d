import { describe, expect, it } from 'vitest';
import { interpolationSettingOf } from '../../../renderer/src/game/interpolationSetting';

describe('interpolationSettingOf', () => {
  it('is adaptive unless the page asks for interp=fixed', () => {
    expect(interpolationSettingOf('', true)).toBe('adaptive');
    expect(interpolationSettingOf('?interp=adaptive&x=1', false)).toBe('adaptive');
    expect(interpolationSettingOf('?interp=fixd', false)).toBe('adaptive');
  });

  it('gives the old fixed delays with interp=fixed: 50 ms on the host, 100 ms on a guest', () => {
    expect(interpolationSettingOf('?interp=fixed', true)).toBe(0.05);
    expect(interpolationSettingOf('?token=abc&interp=fixed', false)).toBe(0.1);
  });
});
