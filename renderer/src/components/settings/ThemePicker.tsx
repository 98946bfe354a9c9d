import { useState } from 'react';
import type { Theme } from '../../../../shared/ipc/schemas/settings';

const THEMES: readonly { value: Theme; label: string }[] = [
  { value: 'system', label: 'Follow system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/**
 * Light, dark or the OS's choice, as a radio group; a choice is saved at once. The picked option shows as
 * checked while it saves, and the saved setting takes over once that is done (the old one if it failed).
 */
export function ThemePicker({
  value,
  disabled,
  onChange,
}: {
  value: Theme;
  disabled: boolean;
  onChange: (theme: Theme) => Promise<unknown>;
}) {
  const [saving, setSaving] = useState<Theme | null>(null);
  const pick = (theme: Theme): void => {
    setSaving(theme);
    void onChange(theme).finally(() => setSaving(null));
  };
  const shown = saving ?? value;
  return (
    <fieldset className="field theme-field" disabled={disabled}>
      <legend className="field-label">Theme</legend>
      <div className="theme-options">
        {THEMES.map((theme) => (
          <label key={theme.value} className="theme-option">
            <input
              type="radio"
              name="theme"
              value={theme.value}
              checked={shown === theme.value}
              onChange={() => pick(theme.value)}
            />
            <span>{theme.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
