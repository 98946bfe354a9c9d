import type { ButtonState, GameButton } from '../../../../shared/games/gameControls';

/** The prefix of the pseudo key codes the touch pad presses with (`touch:<button id>`): no real key code has a colon. */
const TOUCH = 'touch:';

/**
 * Held keys (and touch-pad buttons) turned into a game's button state, for the buttons its definition declares.
 * A `hold` button is on while any of its keys is held; a `press` button yields exactly one press from {@link take}
 * for each press (not auto-repeat), however short the press was.
 */
export class KeyboardControls {
  private readonly byCode = new Map<string, GameButton>();
  private readonly held = new Set<string>();
  private readonly pressed = new Set<string>();

  constructor(buttons: readonly GameButton[]) {
    for (const button of buttons) {
      for (const code of button.keys) this.byCode.set(code, button);
      this.byCode.set(`${TOUCH}${button.id}`, button);
    }
  }

  /** The button a key code (or touch pseudo code) drives, undefined for keys the game leaves alone. */
  buttonOf(code: string): GameButton | undefined {
    return this.byCode.get(code);
  }

  /** A key went down; returns true when it is a game key (the caller then prevents the browser's default). */
  press(code: string, repeat = false): boolean {
    const button = this.byCode.get(code);
    if (button === undefined) return false;
    if (button.mode === 'press' && !repeat && !this.held.has(code)) this.pressed.add(button.id);
    this.held.add(code);
    return true;
  }

  /** A key went up; returns true when it is a game key. */
  release(code: string): boolean {
    this.held.delete(code);
    return this.byCode.has(code);
  }

  /** A touch-pad button went down. */
  touch(buttonId: string): void {
    this.press(`${TOUCH}${buttonId}`);
  }

  /** A touch-pad button went up (or the finger left it). */
  untouch(buttonId: string): void {
    this.release(`${TOUCH}${buttonId}`);
  }

  /** Forgets every held key (focus lost: key-ups will not arrive). */
  releaseAll(): void {
    this.held.clear();
    this.pressed.clear();
  }

  /** Whether any key of the button `id` is held. */
  holds(id: string): boolean {
    for (const code of this.held) if (this.byCode.get(code)?.id === id) return true;
    return false;
  }

  /** The buttons of this moment; consumes the pending presses. */
  take(): ButtonState {
    const held = new Set<string>();
    for (const code of this.held) {
      const id = this.byCode.get(code)?.id;
      if (id !== undefined) held.add(id);
    }
    const pressed = new Set(this.pressed);
    this.pressed.clear();
    return { held, pressed };
  }
}
