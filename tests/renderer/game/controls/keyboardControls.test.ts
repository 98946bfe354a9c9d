import { describe, expect, it } from 'vitest';
import { KeyboardControls } from '../../../../renderer/src/game/controls/keyboardControls';
import { tagControls } from '../../../../shared/games/tag/client/tagControls';
import { pressRace } from '../../../main/game/host/pressRace';

/** Tag's controls of this moment, as the stage reads them each frame. */
const tagOf = (controls: KeyboardControls) => tagControls.read(controls.take());

describe('keyboard controls from a game definition', () => {
  it("maps tag's WASD, arrows and Space by code, and ignores other keys", () => {
    const controls = new KeyboardControls(tagControls.buttons);
    expect(
      ['KeyW', 'ArrowUp', 'KeyA', 'ArrowLeft', 'KeyS', 'ArrowDown', 'KeyD', 'ArrowRight', 'Space'].map(
        (code) => controls.buttonOf(code)?.id,
      ),
    ).toEqual(['up', 'up', 'left', 'left', 'down', 'down', 'right', 'right', 'tag']);
    expect(controls.buttonOf('KeyQ')).toBeUndefined();
    expect(controls.buttonOf('toString')).toBeUndefined();
    expect(controls.press('Tab')).toBe(false);
    expect(controls.release('Enter')).toBe(false);
    expect(tagOf(controls)).toEqual({ moveX: 0, moveY: 0, tag: false });
  });

  it('binds only the keys the game declares: the press race takes Enter, tag does not', () => {
    expect(new KeyboardControls(pressRace.controls.buttons).press('Enter')).toBe(true);
    expect(new KeyboardControls(tagControls.buttons).press('Enter')).toBe(false);
    expect(new KeyboardControls(pressRace.controls.buttons).press('KeyW')).toBe(false);
  });

  it('turns held keys into a move vector; opposite keys cancel, y grows downwards', () => {
    const controls = new KeyboardControls(tagControls.buttons);
    expect(controls.press('KeyD')).toBe(true);
    controls.press('KeyW');
    expect(tagOf(controls)).toEqual({ moveX: 1, moveY: -1, tag: false });
    controls.press('ArrowLeft');
    controls.press('ArrowDown');
    expect(tagOf(controls)).toEqual({ moveX: 0, moveY: 0, tag: false });
    controls.release('KeyD');
    controls.release('KeyW');
    expect(tagOf(controls)).toEqual({ moveX: -1, moveY: 1, tag: false });
    // Two keys for one direction: releasing one keeps moving.
    controls.press('KeyA');
    controls.release('ArrowLeft');
    expect(tagOf(controls).moveX).toBe(-1);
  });

  it('yields one press per press, however short, and none for auto-repeat or a held key', () => {
    const controls = new KeyboardControls(tagControls.buttons);
    controls.press('Space');
    controls.release('Space');
    expect(tagOf(controls).tag).toBe(true);
    expect(tagOf(controls).tag).toBe(false);
    controls.press('Space');
    controls.press('Space', true);
    controls.press('Space');
    expect(tagOf(controls).tag).toBe(true);
    expect(tagOf(controls).tag).toBe(false);
  });

  it('takes touch-pad buttons like keys: held while touched, one press per touch', () => {
    const controls = new KeyboardControls(tagControls.buttons);
    controls.touch('right');
    controls.touch('tag');
    expect(tagOf(controls)).toEqual({ moveX: 1, moveY: 0, tag: true });
    expect(tagOf(controls)).toEqual({ moveX: 1, moveY: 0, tag: false });
    controls.untouch('right');
    controls.untouch('tag');
    expect(tagOf(controls)).toEqual({ moveX: 0, moveY: 0, tag: false });
    controls.touch('nonsense');
    expect(controls.take()).toEqual({ held: new Set(), pressed: new Set() });
  });

  it('forgets everything on focus loss', () => {
    const controls = new KeyboardControls(tagControls.buttons);
    controls.press('KeyD');
    controls.press('Space');
    controls.releaseAll();
    expect(tagOf(controls)).toEqual({ moveX: 0, moveY: 0, tag: false });
    expect(controls.holds('right')).toBe(false);
  });
});
