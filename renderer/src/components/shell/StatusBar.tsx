import type { AppInfo } from '../../../../shared/ipc/schemas/appInfo';
import type { LobbyView } from '../../../../shared/ipc/schemas/lobby';

function roomStatus(lobby: LobbyView): string | null {
  if (lobby.status === 'hosting') return 'Opening a room…';
  if (lobby.status === 'joining') return 'Joining a room…';
  if (lobby.status !== 'in-room' || !lobby.state) return null;
  return `${lobby.role === 'host' ? 'Hosting' : 'In'} “${lobby.state.roomName}” · UDP ${lobby.port}`;
}

/** Bottom line: backend connection, the room we are in, version and platform. */
export function StatusBar({ appInfo, connected, lobby }: { appInfo: AppInfo; connected: boolean; lobby: LobbyView }) {
  const transport = appInfo.transport === 'electron' ? 'Desktop app' : 'Browser · WebSocket dev binding';
  const room = roomStatus(lobby);
  return (
    <footer className="statusbar">
      <span className={connected ? 'status-dot' : 'status-dot status-dot-down'} aria-hidden="true" />
      <span>{connected ? 'Backend connected' : 'Backend disconnected'}</span>
      <span className="statusbar-sep" aria-hidden="true">
        ·
      </span>
      <span>{transport}</span>
      {room && (
        <>
          <span className="statusbar-sep" aria-hidden="true">
            ·
          </span>
          <span className="statusbar-room">{room}</span>
        </>
      )}
      <span className="statusbar-spacer" />
      <span className="muted">
        v{appInfo.version} · {appInfo.platform}
      </span>
    </footer>
  );
}
