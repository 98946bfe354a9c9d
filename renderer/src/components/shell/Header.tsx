import type { AppInfo } from '../../../../shared/ipc/schemas/appInfo';
import type { Settings } from '../../../../shared/ipc/schemas/settings';
import { EditIcon } from '../common/Icons';
import { PlayerAvatar } from '../common/PlayerAvatar';

/** The top bar: brand on the left, transport badge and the player's chip (opens the profile) on the right. */
export function Header({
  appInfo,
  settings,
  onEditProfile,
}: {
  appInfo: AppInfo;
  settings: Settings;
  /** Opens the profile; absent while in a room (the name is fixed there). */
  onEditProfile?: () => void;
}) {
  return (
    <header className="topbar">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <div className="brand-text">
          <span className="brand-name">{appInfo.name}</span>
          <span className="brand-tag">Game night launcher</span>
        </div>
      </div>
      <div className="topbar-right">
        {appInfo.transport === 'websocket' && (
          <span className="pill pill-dev" title="UI running in a browser against the dev backend">
            Browser dev mode
          </span>
        )}
        {onEditProfile ? (
          <button
            type="button"
            className="player-chip"
            onClick={onEditProfile}
            aria-haspopup="dialog"
            data-testid="player-chip"
          >
            <PlayerAvatar name={settings.playerName} color={settings.playerColor} />
            {/* The name as visible text, so what is read out is what is shown (WCAG 2.5.3). */}
            <span className="visually-hidden">Edit profile: </span>
            <span className="player-chip-name">{settings.playerName}</span>
            <EditIcon />
          </button>
        ) : (
          <span className="player-chip player-chip-static" data-testid="player-chip">
            <PlayerAvatar name={settings.playerName} color={settings.playerColor} />
            <span className="player-chip-name">{settings.playerName}</span>
          </span>
        )}
      </div>
    </header>
  );
}
