import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { LanServer } from '../../../../shared/ipc/schemas/lan';
import { encode } from '../../../../shared/roomCode';
import { describePing } from '../../logic/ping';
import type { ActionResult } from '../../state/actionResult';
import { joinFailureView } from '../../logic/joinFailure';
import { joinBlocker, lanRoomStatus } from '../../logic/lanJoinBlocker';
import { GamepadIcon, LockIcon } from '../common/Icons';
import { Spinner } from '../common/Spinner';

/** The room's full code (what anyone on any network types), or null for a host that is not an IPv4 address. */
function roomCodeOf(host: string, port: number): string | null {
  try {
    return encode(host, port);
  } catch {
    return null;
  }
}

/**
 * One room in the LAN table: name (and host player), players, ping, state, Join. Join is disabled with the reason
 * spelled out under it; it asks for the password first when the room has one.
 */
export function LanServerRow({
  server,
  onJoin,
}: {
  server: LanServer;
  onJoin: (server: LanServer, password?: string) => Promise<ActionResult>;
}) {
  const [askPassword, setAskPassword] = useState(false);
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const passwordField = useRef<HTMLInputElement>(null);
  const ping = describePing(server.pingMs);
  const blocker = joinBlocker(server);
  const status = lanRoomStatus(server);
  const players = server.capacity !== null ? `${server.playerCount}/${server.capacity}` : `${server.playerCount}`;
  const code = roomCodeOf(server.host, server.port);
  const noteId = `server-note-${server.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;

  useEffect(() => {
    if (askPassword) passwordField.current?.focus();
  }, [askPassword]);

  const join = async (event?: FormEvent<HTMLFormElement>): Promise<void> => {
    event?.preventDefault();
    if (server.passwordProtected && !askPassword) {
      setAskPassword(true);
      return;
    }
    setPending(true);
    setError(null);
    const result = await onJoin(server, askPassword ? password : undefined);
    setPending(false);
    if (result.ok) return;
    setError(result.message);
    if (joinFailureView(result.code).askPassword) setAskPassword(true);
  };

  return (
    <tr className={`server-row${blocker ? ' server-row-blocked' : ''}`} data-testid="server-row">
      <td className="server-room">
        <div className="server-room-inner">
          <span className={`server-icon${server.own ? ' server-icon-own' : ''}`} aria-hidden="true">
            <GamepadIcon size={22} />
          </span>
          <div className="server-main">
            <div className="server-name-line">
              <span className="server-name">{server.name}</span>
              {server.passwordProtected && (
                <span className="server-lock" title="Password protected">
                  <LockIcon size={14} />
                  <span className="visually-hidden">Password protected</span>
                </span>
              )}
              {server.own && <span className="tag tag-accent">Your room</span>}
              {server.addedByAddress && <span className="tag">Added by address</span>}
            </div>
            {server.hostName && <div className="server-host">Hosted by {server.hostName}</div>}
            <div className="server-meta">
              {server.gameName ?? 'Unknown game'} · {server.host}:{server.port}
            </div>
            {code && (
              <div className="server-code">
                Code <span className="mono">{code}</span>
              </div>
            )}
          </div>
        </div>
      </td>
      <td className="server-action">
        <form className="server-join" onSubmit={(event) => void join(event)}>
          {askPassword && (
            <input
              ref={passwordField}
              className="input input-small"
              type="password"
              placeholder="Password"
              aria-label={`Password for ${server.name}`}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          )}
          <button
            type="submit"
            className="button button-primary button-small-primary"
            disabled={blocker !== null || pending}
            aria-label={`Join ${server.name}`}
            aria-describedby={blocker && !server.own ? noteId : undefined}
          >
            {pending && <Spinner />}
            {pending ? 'Joining…' : 'Join'}
          </button>
        </form>
        {blocker && !server.own && (
          <p id={noteId} className="server-note">
            {blocker}
          </p>
        )}
        {error && (
          <p className="server-error" role="alert">
            {error}
          </p>
        )}
      </td>
      <td className="server-num">
        <span className="visually-hidden">Players: </span>
        {players}
      </td>
      <td className={`server-num server-ping ping-${ping.tone}`}>
        <span className="visually-hidden">Ping: </span>
        {ping.label}
      </td>
      <td>
        <span className={`server-state server-state-${status.kind}`}>
          <span className="server-state-dot" aria-hidden="true" />
          {status.label}
        </span>
      </td>
    </tr>
  );
}
