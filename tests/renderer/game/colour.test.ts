import { describe, expect, it } from 'vitest';
import { inkOn, luminance, parseHexColour, safeColour } from '../../../renderer/src/game/colour';

describe('player colours on the canvas', () => {
  it('parses short and long hex colours and nothing else', () => {
    expect(parseHexColour('#fff')).toEqual({ r: 255, g: 255, b: 255 });
    expect(parseHexColour('#3ddc97')).toEqual({ r: 0x3d, g: 0xdc, b: 0x97 });
    for (const bad of ['red', '#12345', 'url(x)', '#ggg', '']) expect(parseHexColour(bad)).toBeUndefined();
  });

  it('picks dark ink on light colours and white ink on dark ones', () => {
    expect(luminance('#000000')).toBe(0);
    expect(luminance('#ffffff')).toBeCloseTo(1, 9);
    expect(inkOn('#ffe119')).toBe('#0b0d17');
    expect(inkOn('#4363d8')).toBe('#ffffff');
  });

  it('never hands an untrusted string to the canvas', () => {
    expect(safeColour(' #abc ')).toBe('#abc');
    expect(safeColour('javascript:alert(1)')).toBe('#9aa1c7');
  });
});
