import { useState } from 'react';

/** The desktop-notification switch; saves on change (no Save button), and says when that failed. */
export function NotificationSetting({
  enabled,
  onChange,
}: {
  enabled: boolean;
  onChange: (enabled: boolean) => Promise<boolean>;
}) {
  const [saving, setSaving] = useState(false);
  const [failed, setFailed] = useState(false);
  const toggle = async (next: boolean): Promise<void> => {
    setSaving(true);
    setFailed(false);
    const saved = await onChange(next);
    setSaving(false);
    setFailed(!saved);
  };

  return (
    <div className="field advanced">
      <label className="inline-row" htmlFor="notifications-setting">
        <input
          id="notifications-setting"
          type="checkbox"
          checked={enabled}
          disabled={saving}
          aria-describedby="notifications-setting-hint"
          onChange={(event) => void toggle(event.target.checked)}
        />
        <span>Desktop notifications</span>
      </label>
      <p id="notifications-setting-hint" className={failed ? 'field-error' : 'field-hint'}>
        {failed
          ? 'Couldn’t save the notification setting. Try again.'
          : 'While LAN Party is in the background: a player joins, everyone is ready, a round starts.'}
      </p>
    </div>
  );
}
