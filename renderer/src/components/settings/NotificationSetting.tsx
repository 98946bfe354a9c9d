import { useState } from 'react';

/**
 * The desktop-notification switch: flips at once and saves on change (no Save button); a failed save flips it
 * back and says so.
 */
export function NotificationSetting({
  enabled,
  onChange,
}: {
  enabled: boolean;
  onChange: (enabled: boolean) => Promise<boolean>;
}) {
  const [shown, setShown] = useState(enabled);
  const [base, setBase] = useState(enabled);
  const [failed, setFailed] = useState(false);
  // The setting changed underneath (saved, or from elsewhere): follow it.
  if (enabled !== base) {
    setBase(enabled);
    setShown(enabled);
  }
  const toggle = async (next: boolean): Promise<void> => {
    setShown(next);
    setFailed(false);
    if (await onChange(next)) return;
    setShown(enabled);
    setFailed(true);
  };

  return (
    <div className="field advanced">
      <label className="inline-row" htmlFor="notifications-setting">
        <input
          id="notifications-setting"
          type="checkbox"
          checked={shown}
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
