import { useState, type FormEvent } from 'react';
import type { PlayerColor, Settings } from '../../../../shared/ipc/schemas/settings';
import { LOBBY_NAME_UNITS as PLAYER_NAME_MAX } from '../../../../shared/lobby/lobbyLimits';
import { playerNameSchema } from '../../../../shared/lobby/lobbyMessages';
import { ColorPicker } from '../settings/ColorPicker';
import { PlayerAvatar } from '../common/PlayerAvatar';
import { Spinner } from '../common/Spinner';

/** Id of the first-run name field. */
export const FIRST_RUN_NAME_ID = 'first-run-name';

/**
 * The first-run step: what to call you (prefilled from the OS user name) and your colour. Saving marks the
 * player onboarded, and the launcher opens.
 */
export function FirstRunScreen({
  settings,
  saving,
  saveError,
  onDone,
}: {
  settings: Settings;
  saving: boolean;
  saveError: string | null;
  onDone: (name: string, color: PlayerColor) => Promise<boolean>;
}) {
  const [name, setName] = useState(settings.playerName);
  const [color, setColor] = useState<PlayerColor>(settings.playerColor);
  const [touched, setTouched] = useState(false);
  const parsed = playerNameSchema.safeParse(name);
  const nameError = parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Invalid name');
  const showError = touched && nameError !== null;

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setTouched(true);
    if (!parsed.success) {
      document.getElementById(FIRST_RUN_NAME_ID)?.focus();
      return;
    }
    await onDone(parsed.data, color);
  };

  return (
    <main className="center-screen first-run">
      <form
        className="card first-run-card"
        aria-labelledby="first-run-title"
        onSubmit={(event) => void submit(event)}
        noValidate
      >
        <div className="first-run-hero">
          <span className="brand-mark brand-mark-large" aria-hidden="true" />
          <p className="eyebrow">Welcome to LAN Party</p>
          <h1 id="first-run-title" className="first-run-title">
            Who’s playing tonight?
          </h1>
          <p className="muted">Pick the name and colour your friends will see in lobbies. You can change them later.</p>
        </div>
        <div className="first-run-preview" aria-hidden="true">
          <PlayerAvatar name={name.trim() || '?'} color={color} size="large" />
          <span className="first-run-preview-name" style={{ color }}>
            {name.trim() || 'Your name'}
          </span>
        </div>
        <div className="field">
          <div className="field-row">
            <label className="field-label" htmlFor={FIRST_RUN_NAME_ID}>
              Player name
            </label>
            <span className="counter" aria-hidden="true">
              {name.trim().length}/{PLAYER_NAME_MAX}
            </span>
          </div>
          <input
            id={FIRST_RUN_NAME_ID}
            className="input input-large"
            type="text"
            autoComplete="nickname"
            spellCheck={false}
            autoFocus
            value={name}
            aria-invalid={showError}
            aria-describedby="first-run-name-hint"
            onChange={(event) => setName(event.target.value)}
            onBlur={() => setTouched(true)}
          />
          <p id="first-run-name-hint" className={showError ? 'field-error' : 'field-hint'}>
            {showError ? nameError : `1–${PLAYER_NAME_MAX} characters`}
          </p>
        </div>
        <ColorPicker value={color} onChange={setColor} />
        {saveError && (
          <p className="field-error" role="alert">
            Couldn’t save: {saveError}
          </p>
        )}
        <button type="submit" className="button button-primary button-large" disabled={saving}>
          {saving && <Spinner />}
          {saving ? 'Saving…' : 'Let’s play'}
        </button>
      </form>
    </main>
  );
}
