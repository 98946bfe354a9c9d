import type { PadControls } from './gameRenderer';

/** What a key does in a game: a direction, or the primary action (tag: tag). */
export type GameAction = 'up' | 'down' | 'left' | 'right' | 'action';

/** Keys by `KeyboardEvent.code` (layout-independent: WASD stays in place on AZERTY). */
export const KEY_BINDINGS: Readonly<Record<string, GameAction>> = {
  KeyW: 'up',
  ArrowUp: 'up',
  KeyS: 'down',
  ArrowDown: 'down',
  KeyA: 'left',
  ArrowLeft: 'left',
  KeyD: 'right',
  ArrowRight: 'right',
  Space: 'action',
};

/** The action of a key code, undefined for keys the game leaves alone. */
export function actionOf(code: string): GameAction | undefined {
  return Object.hasOwn(KEY_BINDINGS, code) ? KEY_BINDINGS[code] : undefined;
}

/**
 * Held keys turned into controls. Movement follows the keys held now (opposite keys cancel); the action is an edge:
 * each press (not auto-repeat) yields exactly one `action: true` from {@link take}, however short the press was.
 */
export class KeyboardControls {
  private readonly held = new Set<string>();
  private actionPressed = false;

  /** A key went down; returns true when it is a game key (the caller then prevents the browser's default). */
  press(code: string, repeat = false): boolean {
    const action = actionOf(code);
    if (action === undefined) return false;
    if (action === 'action' && !repeat && !this.held.has(code)) this.actionPressed = true;
    this.held.add(code);
    return true;
  }

  /** A key went up; returns true when it is a game key. */
  release(code: string): boolean {
    this.held.delete(code);
    return actionOf(code) !== undefined;
  }

  /** Forgets every held key (focus lost: key-ups will not arrive). */
  releaseAll(): void {
    this.held.clear();
    this.actionPressed = false;
  }

  /** Whether any key of `action` is held. */
  holds(action: GameAction): boolean {
    for (const code of this.held) if (KEY_BINDINGS[code] === action) return true;
    return false;
  }

  /** The controls of this moment; consumes a pending action press. */
  take(): PadControls {
    const moveX = (this.holds('right') ? 1 : 0) - (this.holds('left') ? 1 : 0);
    const moveY = (this.holds('down') ? 1 : 0) - (this.holds('up') ? 1 : 0);
    const action = this.actionPressed;
    this.actionPressed = false;
    return { moveX, moveY, action };
  }
}
