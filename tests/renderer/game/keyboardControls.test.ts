import { describe, expect, it } from 'vitest';
import { actionOf, KeyboardControls } from '../../../renderer/src/game/keyboardControls';

describe('keyboard controls', () => {
  it('maps WASD and the arrows by code, and ignores other keys', () => {
    expect(
      ['KeyW', 'ArrowUp', 'KeyA', 'ArrowLeft', 'KeyS', 'ArrowDown', 'KeyD', 'ArrowRight', 'Space'].map(actionOf),
    ).toEqual(['up', 'up', 'left', 'left', 'down', 'down', 'right', 'right', 'action']);
    expect(actionOf('KeyQ')).toBeUndefined();
    expect(actionOf('toString')).toBeUndefined();
    const controls = new KeyboardControls();
    expect(controls.press('Tab')).toBe(false);
    expect(controls.release('Enter')).toBe(false);
    expect(controls.take()).toEqual({ moveX: 0, moveY: 0, action: false });
  });

  it('turns held keys into a move vector; opposite keys cancel, y grows downwards', () => {
    const controls = new KeyboardControls();
    expect(controls.press('KeyD')).toBe(true);
    controls.press('KeyW');
    expect(controls.take()).toEqual({ moveX: 1, moveY: -1, action: false });
    controls.press('ArrowLeft');
    controls.press('ArrowDown');
    expect(controls.take()).toEqual({ moveX: 0, moveY: 0, action: false });
    controls.release('KeyD');
    controls.release('KeyW');
    expect(controls.take()).toEqual({ moveX: -1, moveY: 1, action: false });
    // Two keys for one direction: releasing one keeps moving.
    controls.press('KeyA');
    controls.release('ArrowLeft');
    expect(controls.take().moveX).toBe(-1);
  });

  it('yields one action per press, however short, and none for auto-repeat or a held key', () => {
    const controls = new KeyboardControls();
    controls.press('Space');
    controls.release('Space');
    expect(controls.take().action).toBe(true);
    expect(controls.take().action).toBe(false);
    controls.press('Space');
    controls.press('Space', true);
    controls.press('Space');
    expect(controls.take().action).toBe(true);
    expect(controls.take().action).toBe(false);
  });

  it('forgets everything on focus loss', () => {
    const controls = new KeyboardControls();
    controls.press('KeyD');
    controls.press('Space');
    controls.releaseAll();
    expect(controls.take()).toEqual({ moveX: 0, moveY: 0, action: false });
    expect(controls.holds('right')).toBe(false);
  });
});
