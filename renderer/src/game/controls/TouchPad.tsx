import type { PointerEvent } from 'react';
import type { GameButton, PadSlot } from '../../../../shared/games/gameControls';
import './touchPad.css';

const CROSS: readonly PadSlot[] = ['up', 'left', 'right', 'down'];

/**
 * On-screen buttons for a touch screen, from the game's declared controls: the directions as a cross, the actions
 * beside it. Shown only where the main pointer is coarse (gameStage.css). Pointer capture keeps a finger that slides
 * off a button from leaving it stuck; the buttons never take focus, so the arena keeps the keyboard.
 */
export function TouchPad({
  buttons,
  onDown,
  onUp,
}: {
  buttons: readonly GameButton[];
  onDown: (id: string) => void;
  onUp: (id: string) => void;
}) {
  const cross = CROSS.flatMap((slot) => buttons.filter((b) => b.slot === slot));
  const actions = buttons.filter((b) => b.slot === 'action');
  const pad = (button: GameButton) => {
    const up = (event: PointerEvent<HTMLButtonElement>) => {
      event.preventDefault();
      onUp(button.id);
    };
    return (
      <button
        key={button.id}
        type="button"
        tabIndex={-1}
        className={`touch-button touch-${button.slot}`}
        aria-label={button.id}
        data-testid={`touch-${button.id}`}
        onPointerDown={(event) => {
          event.preventDefault();
          try {
            event.currentTarget.setPointerCapture(event.pointerId);
          } catch {
            // The pointer is already gone (lifted at once, or a synthetic event): the press still counts.
          }
          onDown(button.id);
        }}
        onPointerUp={up}
        onPointerCancel={up}
        onLostPointerCapture={() => onUp(button.id)}
        onContextMenu={(event) => event.preventDefault()}
      >
        {button.label}
      </button>
    );
  };
  return (
    <div className="touch-pad" aria-hidden="true">
      {cross.length > 0 && <div className="touch-cross">{cross.map(pad)}</div>}
      {actions.length > 0 && <div className="touch-actions">{actions.map(pad)}</div>}
    </div>
  );
}
