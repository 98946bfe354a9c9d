import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { LanServer } from '../../../shared/ipc/schemas/lan';
import { describePing } from '../logic/ping';
import type { ActionResult } from '../state/actionResult';
import { joinFailureView } from '../logic/joinFailure';
import { joinBlocker } from '../logic/lanJoinBlocker';
import { GamepadIcon, LockIcon } from './Icons';
import { Spinner } from './Spinner';

/** One room in the LAN list: name, players, ping, lock and version; Join asks for the password first if needed. */
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
  const players = server.capacity !== null ? `${server.playerCount}/${server.capacity}` : `${server.playerCount}`;

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
    <li className={`server-row${blocker ? ' server-row-blocked' : ''}`}>
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
          {server.compatibility === 'incompatible' && <span className="tag tag-warn">Different version</span>}
          {server.compatibility === 'unknown' && <span className="tag">gale.net</span>}
        </div>
        <div className="server-meta">
          {server.gameName ?? 'Unknown game'} · {server.host}:{server.port}
        </div>
      </div>
      <div className="server-stat" aria-label={`${players} players`}>
        <span className="server-stat-value">{players}</span>
        <span className="server-stat-label">players</span>
      </div>
      <div className={`server-stat ping-${ping.tone}`} aria-label={`Ping ${ping.label}`}>
        <span className="server-stat-value">{ping.label}</span>
        <span className="server-stat-label">ping</span>
      </div>
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
          title={blocker ?? undefined}
          aria-label={`Join ${server.name}`}
        >
          {pending && <Spinner />}
          {pending ? 'Joining…' : 'Join'}
        </button>
      </form>
      {blocker && !server.own && <p className="server-note">{blocker}</p>}
      {error && (
        <p className="server-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
