import { useState, type FormEvent } from 'react';
import { internetRoomsEnabled, type InternetSettings } from '../../../../shared/ipc/schemas/internetSettings';
import { draftOf, settingsOf, type InternetRoomsDraft } from './internetRoomsDraft';

/**
 * Settings → Internet rooms: the rendezvous service (without one, internet rooms are off and the section says
 * why), the TURN relay (none, minted by the rendezvous, or a fixed server and account) and the DHT's bootstrap
 * nodes (empty: the public ones). Saved with its own
 * button; a refused save says why and keeps what was typed.
 */
export function InternetRoomsSection({
  settings,
  onSave,
}: {
  settings: InternetSettings | undefined;
  onSave: (internet: InternetSettings) => Promise<boolean>;
}) {
  const [draft, setDraft] = useState<InternetRoomsDraft>(() => draftOf(settings));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const enabled = internetRoomsEnabled(settings);
  const set = (patch: Partial<InternetRoomsDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setSaved(false);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = settingsOf(draft);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setError(null);
    if (await onSave(result.value)) setSaved(true);
    else setError('Couldn’t save the internet room settings. Try again.');
  };

  return (
    <form className="field advanced internet-rooms" aria-labelledby="internet-rooms-title" onSubmit={submit}>
      <h3 id="internet-rooms-title">Internet rooms</h3>
      <p className="field-hint" id="internet-rooms-state" role="status">
        {enabled
          ? 'On: you can host a room for friends over the internet, and join one with a NET- code.'
          : 'Off. Friends outside your network find your room through a rendezvous service, which you or a friend ' +
            'can run (lan-party-host --rendezvous, see the README). Enter its address to turn internet rooms on.'}
      </p>
      <label htmlFor="rendezvous-url">Rendezvous service</label>
      <input
        id="rendezvous-url"
        type="url"
        placeholder="wss://rdv.example.org/rendezvous/v1"
        value={draft.rendezvousUrl}
        aria-describedby="internet-rooms-state"
        onChange={(e) => set({ rendezvousUrl: e.target.value })}
      />
      <label htmlFor="turn-mode">Relay (TURN) when no direct path works</label>
      <select
        id="turn-mode"
        value={draft.turnMode}
        onChange={(e) => set({ turnMode: e.target.value as InternetRoomsDraft['turnMode'] })}
      >
        <option value="shared-secret">From the rendezvous (it hands out time-limited passwords)</option>
        <option value="static">My own TURN server</option>
        <option value="none">None (some networks will not connect)</option>
      </select>
      {draft.turnMode === 'static' && (
        <>
          <label htmlFor="turn-server">TURN server (host:port)</label>
          <input
            id="turn-server"
            placeholder="turn.example.org:3478"
            value={draft.turnServer}
            onChange={(e) => set({ turnServer: e.target.value })}
          />
          <label htmlFor="turn-username">TURN user name</label>
          <input
            id="turn-username"
            autoComplete="off"
            value={draft.turnUsername}
            onChange={(e) => set({ turnUsername: e.target.value })}
          />
          <label htmlFor="turn-password">TURN password</label>
          <input
            id="turn-password"
            type="password"
            autoComplete="off"
            value={draft.turnPassword}
            onChange={(e) => set({ turnPassword: e.target.value })}
          />
        </>
      )}
      <label htmlFor="dht-bootstrap">DHT bootstrap nodes (where rooms your router will not open meet guests)</label>
      <input
        id="dht-bootstrap"
        placeholder="the public ones; or host:port, host:port"
        value={draft.dhtBootstrap}
        aria-describedby="dht-bootstrap-hint"
        onChange={(e) => set({ dhtBootstrap: e.target.value })}
      />
      <p className="field-hint" id="dht-bootstrap-hint">
        Leave empty for HyperDHT’s public nodes. Only your room’s key goes to the DHT, never its code, name or chat. A
        change applies the next time LAN Party starts.
      </p>
      <button type="submit">Save internet room settings</button>
      {error !== null && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {saved && error === null && <p className="ok">✓ Saved</p>}
    </form>
  );
}
