import { useEffect } from 'react';
import type { LanList, LanServer } from '../../../shared/ipc/schemas/lan';
import { LAN_PARTY_PORTS } from '../../../shared/netcheck/ports';
import type { ActionResult } from '../state/actionResult';
import { BrowseIcon, RefreshIcon } from './Icons';
import { LanServerRow } from './LanServerRow';
import { ScreenHeader } from './ScreenHeader';
import { Spinner } from './Spinner';

/** What to check when no room shows up. */
function EmptyState({
  searching,
  onOpenNetcheck,
  onJoinByCode,
}: {
  searching: boolean;
  onOpenNetcheck: () => void;
  onJoinByCode: () => void;
}) {
  return (
    <div className="card empty-state" role="status" aria-live="polite">
      <div className={searching ? 'radar radar-active' : 'radar'} aria-hidden="true">
        <BrowseIcon />
      </div>
      <h2 className="empty-title">{searching ? 'No rooms found yet' : 'Not searching'}</h2>
      <p className="muted">
        {searching
          ? 'Still searching. If a friend’s room doesn’t show up within a few seconds, check:'
          : 'The search could not run. Meanwhile, check:'}
      </p>
      <ul className="checklist">
        <li>
          <strong>Same network.</strong> Everyone on the same Wi-Fi or wired LAN — not a guest network, which keeps
          devices apart.
        </li>
        <li>
          <strong>Firewall.</strong> LAN Party must be allowed through the firewall on both computers (UDP{' '}
          {LAN_PARTY_PORTS.DISCOVERY} to find rooms, {LAN_PARTY_PORTS.GAME} to play).
        </li>
        <li>
          <strong>The room is open.</strong> The host sees the room code on their screen.
        </li>
      </ul>
      <div className="empty-actions">
        <button type="button" className="button button-primary" onClick={onOpenNetcheck}>
          Run the network check
        </button>
        <button type="button" className="button button-ghost" onClick={onJoinByCode}>
          Join with a code instead
        </button>
      </div>
    </div>
  );
}

/** The live list of rooms on this network; searching runs while the screen is open. */
export function LanScreen({
  lan,
  busy,
  onStart,
  onStop,
  onRefresh,
  onJoin,
  onBack,
  onOpenNetcheck,
  onJoinByCode,
}: {
  lan: LanList;
  busy: boolean;
  onStart: () => void;
  onStop: () => void;
  onRefresh: () => void;
  onJoin: (server: LanServer, password?: string) => Promise<ActionResult>;
  onBack: () => void;
  onOpenNetcheck: () => void;
  onJoinByCode: () => void;
}) {
  useEffect(() => {
    onStart();
    return onStop;
  }, [onStart, onStop]);

  const count = lan.servers.length;
  const subtitle = lan.running
    ? count === 0
      ? 'Searching this network…'
      : `${count} ${count === 1 ? 'room' : 'rooms'} on this network · updates live`
    : 'Rooms hosted on this network';

  return (
    <section className="screen" aria-labelledby="lan-title">
      <ScreenHeader
        title="Rooms on your network"
        titleId="lan-title"
        subtitle={subtitle}
        onBack={onBack}
        action={
          <button type="button" className="button button-ghost" onClick={onRefresh} disabled={busy}>
            {busy ? <Spinner /> : <RefreshIcon />}
            <span>Refresh</span>
          </button>
        }
      />
      {lan.error && (
        <div className="alert alert-error" role="alert">
          {lan.error}{' '}
          <button type="button" className="link-button" onClick={onRefresh}>
            Try again
          </button>
        </div>
      )}
      {count > 0 ? (
        <ul className="server-list" aria-label="Rooms">
          {lan.servers.map((server) => (
            <LanServerRow key={server.id} server={server} onJoin={onJoin} />
          ))}
        </ul>
      ) : !lan.running && !lan.error ? (
        <div className="card progress-card" role="status">
          <Spinner />
          <span>Starting the search…</span>
        </div>
      ) : (
        <EmptyState searching={lan.running} onOpenNetcheck={onOpenNetcheck} onJoinByCode={onJoinByCode} />
      )}
    </section>
  );
}
