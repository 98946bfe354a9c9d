import type { AppInfo } from '../../../shared/ipc/schemas/appInfo';

/** Bottom line: version, platform and how the UI talks to the backend. */
export function StatusBar({ appInfo, connected }: { appInfo: AppInfo; connected: boolean }) {
  const transport = appInfo.transport === 'electron' ? 'Desktop app' : 'Browser · WebSocket dev binding';
  return (
    <footer className="statusbar">
      <span className={connected ? 'status-dot' : 'status-dot status-dot-down'} aria-hidden="true" />
      <span>{connected ? 'Backend connected' : 'Backend disconnected'}</span>
      <span className="statusbar-sep" aria-hidden="true">
        ·
      </span>
      <span>{transport}</span>
      <span className="statusbar-spacer" />
      <span className="muted">
        v{appInfo.version} · {appInfo.platform}
      </span>
    </footer>
  );
}
