import { useState, type FormEvent } from 'react';
import type { Settings, SettingsPatch } from '../../../../shared/ipc/schemas/settings';
import { LOBBY_NAME_UNITS as PLAYER_NAME_MAX } from '../../../../shared/lobby/lobbyLimits';
import { playerNameSchema } from '../../../../shared/lobby/lobbyMessages';
import type { SaveStatus } from '../../state/appStore';
import { ColorPicker } from './ColorPicker';
import { InternetRoomsSection } from './InternetRoomsSection';
import { CloseIcon } from '../common/Icons';
import { NotificationSetting } from './NotificationSetting';
import { PlayerAvatar } from '../common/PlayerAvatar';
import { ThemePicker } from './ThemePicker';

/** Id of the name field, so the header's chip can focus it. */
export const PLAYER_NAME_INPUT_ID = 'player-name';

interface Props {
  settings: Settings;
  saveStatus: SaveStatus;
  saveError: string | null;
  onSave: (next: SettingsPatch) => Promise<boolean>;
  /** Shown as a close button when the panel sits in a dialog. */
  onClose?: () => void;
}

/**
 * The player profile: name and colour, validated with the contract's own schema before sending; and the
 * theme, saved as soon as it is picked (it changes nothing other players see).
 */
export function ProfilePanel({ settings, saveStatus, saveError, onSave, onClose }: Props) {
  const [draft, setDraft] = useState<Settings>(settings);
  const [base, setBase] = useState<Settings>(settings);
  const [touched, setTouched] = useState(false);
  // Settings changed underneath (saved, or changed elsewhere): follow them unless the user is mid-edit.
  if (settings !== base) {
    const untouched = draft.playerName === base.playerName && draft.playerColor === base.playerColor;
    const justSaved = draft.playerName.trim() === settings.playerName && draft.playerColor === settings.playerColor;
    setBase(settings);
    if (untouched || justSaved) setDraft(settings);
  }

  const parsedName = playerNameSchema.safeParse(draft.playerName);
  const nameError = parsedName.success ? null : (parsedName.error.issues[0]?.message ?? 'Invalid name');
  const trimmedName = draft.playerName.trim();
  const dirty = trimmedName !== settings.playerName || draft.playerColor !== settings.playerColor;
  // UTF-16 units, as the limit counts them (an emoji is two).
  const length = trimmedName.length;
  const showNameError = touched && nameError !== null;

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setTouched(true);
    if (!parsedName.success) {
      document.getElementById(PLAYER_NAME_INPUT_ID)?.focus();
      return;
    }
    await onSave({ playerName: parsedName.data, playerColor: draft.playerColor });
  };

  return (
    <div className="card profile">
      <div className="profile-head">
        <PlayerAvatar name={trimmedName || '?'} color={draft.playerColor} size="large" />
        <div className="profile-head-text">
          <h2 id="profile-title" className="card-title">
            Player profile
          </h2>
          <p className="muted small">How other players see you in lobbies.</p>
        </div>
        {onClose && (
          <button type="button" className="icon-button profile-close" onClick={onClose} aria-label="Close profile">
            <CloseIcon />
          </button>
        )}
      </div>
      <form className="profile-form" onSubmit={(event) => void submit(event)} noValidate>
        <div className="field">
          <div className="field-row">
            <label className="field-label" htmlFor={PLAYER_NAME_INPUT_ID}>
              Player name
            </label>
            <span className={`counter ${length > PLAYER_NAME_MAX ? 'counter-over' : ''}`} aria-hidden="true">
              {length}/{PLAYER_NAME_MAX}
            </span>
          </div>
          <input
            id={PLAYER_NAME_INPUT_ID}
            className="input"
            type="text"
            autoComplete="nickname"
            spellCheck={false}
            value={draft.playerName}
            aria-invalid={showNameError}
            aria-describedby="player-name-hint"
            onChange={(event) => setDraft({ ...draft, playerName: event.target.value })}
            onBlur={() => setTouched(true)}
          />
          <p id="player-name-hint" className={showNameError ? 'field-error' : 'field-hint'}>
            {showNameError ? nameError : `1–${PLAYER_NAME_MAX} characters · shown to the room`}
          </p>
        </div>
        <ColorPicker value={draft.playerColor} onChange={(playerColor) => setDraft({ ...draft, playerColor })} />
        <div className="form-actions">
          <button
            type="button"
            className="button button-ghost"
            disabled={!dirty || saveStatus === 'saving'}
            onClick={() => {
              setDraft(settings);
              setTouched(false);
            }}
          >
            Discard
          </button>
          <button type="submit" className="button button-primary" disabled={!dirty || saveStatus === 'saving'}>
            {saveStatus === 'saving' ? 'Saving…' : 'Save profile'}
          </button>
        </div>
        <p className="form-status" role="status" aria-live="polite">
          {saveStatus === 'saved' && !dirty && <span className="ok">✓ Profile saved</span>}
        </p>
        {saveStatus === 'error' && saveError && (
          <p className="field-error" role="alert">
            Couldn’t save: {saveError}
          </p>
        )}
      </form>
      <NotificationSetting enabled={settings.notifications} onChange={(notifications) => onSave({ notifications })} />
      <ThemePicker value={settings.theme} disabled={saveStatus === 'saving'} onChange={(theme) => onSave({ theme })} />
      <InternetRoomsSection settings={settings.internet} onSave={(internet) => onSave({ internet })} />
    </div>
  );
}
