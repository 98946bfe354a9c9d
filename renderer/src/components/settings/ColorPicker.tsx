import type { CSSProperties } from 'react';
import { PLAYER_COLORS, type PlayerColor } from '../../../../shared/ipc/schemas/settings';

/** The palette as a radio group: arrow keys move between swatches, each has its colour's name. */
export function ColorPicker({ value, onChange }: { value: string; onChange: (color: PlayerColor) => void }) {
  return (
    <fieldset className="field color-field">
      <legend className="field-label">Colour</legend>
      <div className="swatches">
        {PLAYER_COLORS.map((color) => (
          <label key={color.hex} className="swatch" style={{ '--swatch': color.hex } as CSSProperties}>
            <input
              type="radio"
              name="player-color"
              value={color.hex}
              checked={value === color.hex}
              onChange={() => onChange(color.hex)}
              aria-label={color.label}
            />
            <span className="swatch-dot" aria-hidden="true" />
          </label>
        ))}
      </div>
    </fieldset>
  );
}
