/** Where a control sits on the touch pad: the direction cross, or the action buttons beside it. */
export type PadSlot = 'up' | 'down' | 'left' | 'right' | 'action';

/** One control of a game: a button bound to keys and to a slot on the touch pad. */
export interface GameButton {
  /** The game's name for it, e.g. 'left' or 'tag'; unique within the game. */
  readonly id: string;
  /** Shown on the touch pad, e.g. '←' or 'Tag'. */
  readonly label: string;
  /** `KeyboardEvent.code`s (layout-independent: WASD stays in place on AZERTY). */
  readonly keys: readonly string[];
  /** `hold`: on while held. `press`: one edge per press (not auto-repeat), however short the press was. */
  readonly mode: 'hold' | 'press';
  readonly slot: PadSlot;
}

/** The buttons at one moment: which are held, and which `press` buttons were pressed since the last look. */
export interface ButtonState {
  readonly held: ReadonlySet<string>;
  readonly pressed: ReadonlySet<string>;
}

/** A game's controls: its buttons (keys, touch pad) and what a moment of them means to its client view (`C`). */
export interface GameControls<C = unknown> {
  readonly buttons: readonly GameButton[];
  read(state: ButtonState): C;
}

/** The four directions on WASD and the arrow keys, held or pressed. */
export function directionButtons(mode: GameButton['mode']): GameButton[] {
  return [
    { id: 'up', label: '↑', keys: ['KeyW', 'ArrowUp'], mode, slot: 'up' },
    { id: 'down', label: '↓', keys: ['KeyS', 'ArrowDown'], mode, slot: 'down' },
    { id: 'left', label: '←', keys: ['KeyA', 'ArrowLeft'], mode, slot: 'left' },
    { id: 'right', label: '→', keys: ['KeyD', 'ArrowRight'], mode, slot: 'right' },
  ];
}

/** −1, 0 or 1 along one axis from two held buttons (opposites cancel). */
export function heldAxis(state: ButtonState, negative: string, positive: string): number {
  return (state.held.has(positive) ? 1 : 0) - (state.held.has(negative) ? 1 : 0);
}

/** Throws on buttons a game cannot have: none, a repeated id, or one key bound twice. */
export function assertControls(gameId: string, controls: GameControls): void {
  const ids = new Set<string>();
  const keys = new Set<string>();
  if (controls.buttons.length === 0) throw new RangeError(`game ${gameId}: controls have no buttons`);
  for (const button of controls.buttons) {
    if (ids.has(button.id)) throw new RangeError(`game ${gameId}: button “${button.id}” is declared twice`);
    ids.add(button.id);
    for (const key of button.keys) {
      if (keys.has(key)) throw new RangeError(`game ${gameId}: key ${key} is bound twice`);
      keys.add(key);
    }
  }
}
