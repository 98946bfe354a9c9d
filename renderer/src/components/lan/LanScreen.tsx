import { useEffect, useState } from 'react';
import type { LanList, LanServer } from '../../../../shared/ipc/schemas/lan';
import { DEFAULT_LAN_SORT, nextLanSort, sortLanServers, type LanSort, type LanSortKey } from '../../logic/lanSort';
import type { ActionResult } from '../../state/actionResult';
import { BrowseIcon, RefreshIcon } from '../common/Icons';
import { LanAddServer } from './LanAddServer';
import { LanServerRow } from './LanServerRow';
import { ScreenHeader } from '../common/ScreenHeader';
import { Spinner } from '../common/Spinner';

/** What to check when no room shows up; the ports are the ones this backend really uses. */
function EmptyState({
  searching,
  ports,
  onOpenNetcheck,
  onJoinByCode,
}: {
  searching: boolean;
  ports: LanList['ports'];
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
          {ports.discovery} to find rooms, {ports.game === 0 ? 'the room’s game port' : ports.game} to play).
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

const COLUMNS: { key: LanSortKey; label: string; className?: string }[] = [
  { key: 'name', label: 'Room' },
  { key: 'players', label: 'Players', className: 'server-num' },
  { key: 'ping', label: 'Ping', className: 'server-num' },
  { key: 'state', label: 'State' },
];

/** The rooms as a table, sortable by each column from its header button (aria-sort says which). */
function ServerTable({
  servers,
  onJoin,
}: {
  servers: readonly LanServer[];
  onJoin: (server: LanServer, password?: string) => Promise<ActionResult>;
}) {
  const [sort, setSort] = useState<LanSort>(DEFAULT_LAN_SORT);
  const sorted = sortLanServers(servers, sort);
  const joinHeader = (
    <th key="join" scope="col" className="server-action">
      <span className="visually-hidden">Join</span>
    </th>
  );
  return (
    <div className="server-table-wrap">
      <table className="server-table" aria-label="Rooms" aria-describedby="lan-sort-hint">
        <thead>
          <tr>
            {COLUMNS.map((column, index) => {
              const active = sort.key === column.key;
              const header = (
                <th
                  key={column.key}
                  scope="col"
                  className={column.className}
                  aria-sort={active ? sort.direction : undefined}
                >
                  <button
                    type="button"
                    className={`sort-button${active ? ' sort-button-active' : ''}`}
                    onClick={() => setSort(nextLanSort(sort, column.key))}
                  >
                    {column.label}
                    <span className="sort-arrow" aria-hidden="true">
                      {active ? (sort.direction === 'ascending' ? '▲' : '▼') : '↕'}
                    </span>
                  </button>
                </th>
              );
              // Join sits right after the room's name, not across the table from it.
              return index === 0 ? [header, joinHeader] : header;
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.map((server) => (
            <LanServerRow key={server.id} server={server} onJoin={onJoin} />
          ))}
        </tbody>
      </table>
      <p id="lan-sort-hint" className="visually-hidden">
        Column headers are buttons: press one to sort by it, again to reverse.
      </p>
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
  onAddServer,
  onRemoveServer,
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
  onAddServer: (host: string, port: number) => Promise<ActionResult>;
  onRemoveServer: (host: string, port: number) => Promise<ActionResult>;
  onBack: () => void;
  onOpenNetcheck: () => void;
  onJoinByCode: () => void;
}) {
  useEffect(() => {
    onStart();
    return onStop;
  }, [onStart, onStop]);

  const count = lan.servers.length;
  const starting = count === 0 && !lan.running && !lan.error;
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
      {count > 0 && <ServerTable servers={lan.servers} onJoin={onJoin} />}
      {count > 0 && count <= 2 && (
        // A short list leaves room for what to do when the friend's room is not in it.
        <div className="card lan-missing" data-testid="lan-missing">
          <p>
            <strong>Friend’s room not here?</strong> Ask for its code, add the host by address below (a VPN, another
            subnet), or check that both computers let LAN Party through the firewall (UDP {lan.ports.discovery}).
          </p>
          <div className="empty-actions">
            <button type="button" className="button button-ghost" onClick={onJoinByCode}>
              Join with a code
            </button>
            <button type="button" className="button button-ghost" onClick={onOpenNetcheck}>
              Run the network check
            </button>
          </div>
        </div>
      )}
      {count > 0 ? null : starting ? (
        <div className="card progress-card" role="status">
          <Spinner />
          <span>Starting the search…</span>
        </div>
      ) : (
        <EmptyState
          searching={lan.running}
          ports={lan.ports}
          onOpenNetcheck={onOpenNetcheck}
          onJoinByCode={onJoinByCode}
        />
      )}
      {/* Until the backend answers, the discovery port this form names is not known. */}
      {!starting && (
        <LanAddServer
          added={lan.added}
          discoveryPort={lan.ports.discovery}
          onAdd={onAddServer}
          onRemove={onRemoveServer}
        />
      )}
    </section>
  );
}
