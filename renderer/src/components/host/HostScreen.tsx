import { useEffect, useState, type FormEvent } from 'react';
import { DEFAULT_GAME_ID, GAMES } from '../../../../shared/games/registry';
import {
  ROOM_CAPACITY,
  ROOM_NAME_MAX,
  portSchema,
  roomCapacityRange,
  roomNameSchema,
  SEAT_GRACE,
  seatGraceSchema,
} from '../../../../shared/ipc/schemas/lobby';
import type { HostAddress, HostAddresses, HostRoomInput } from '../../../../shared/ipc/schemas/lobby';
import { LAN_PARTY_PORTS } from '../../../../shared/netcheck/ports';
import type { ActionResult } from '../../state/actionResult';
import { internetRoomsHint, type InternetRoomsOffer } from '../../logic/internetRooms';
import { AddressPicker } from './AddressPicker';
import { GamePicker, playerLimitsText } from './GamePicker';
import { WholeNumberField } from './WholeNumberField';
import { ScreenHeader } from '../common/ScreenHeader';
import { Spinner } from '../common/Spinner';

/** The room sizes a game allows, smallest first. */
function capacitiesOf(gameId: string): number[] {
  const { min, max } = roomCapacityRange(GAMES.get(gameId));
  return Array.from({ length: max - min + 1 }, (_, i) => i + min);
}

function firstIssue(result: { success: boolean; error?: { issues: { message: string }[] } }): string | null {
  return result.success ? null : (result.error?.issues[0]?.message ?? 'Invalid value');
}

/** The host form: the game, sensible defaults, optional capacity and password, the port under "Advanced". */
export function HostScreen({
  playerName,
  onHost,
  onBack,
  onLoadAddresses,
  onRememberAddress,
  internetRooms = 'off',
}: {
  playerName: string;
  /** How the room can take friends over the internet (the router maps a port, a rendezvous is set up), or not. */
  internetRooms?: InternetRoomsOffer;
  onHost: (input: HostRoomInput) => Promise<ActionResult>;
  onBack: () => void;
  /** This machine's addresses for the code, and the remembered or best one. */
  onLoadAddresses?: () => Promise<HostAddresses | null>;
  /** Saves the chosen interface so the next room uses it too. */
  onRememberAddress?: (entry: HostAddress) => void;
}) {
  const [roomName, setRoomName] = useState('');
  const [gameId, setGameId] = useState(DEFAULT_GAME_ID);
  const [capacity, setCapacity] = useState<number>(ROOM_CAPACITY.DEFAULT);
  const [password, setPassword] = useState('');
  const [port, setPort] = useState('');
  const [grace, setGrace] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [addresses, setAddresses] = useState<readonly HostAddress[]>([]);
  const [address, setAddress] = useState<string | null>(null);
  const [reach, setReach] = useState<'lan' | 'internet'>('lan');

  useEffect(() => {
    let live = true;
    void onLoadAddresses?.().then((loaded) => {
      if (!live || !loaded) return;
      setAddresses(loaded.addresses);
      setAddress(loaded.preferred);
    });
    return () => {
      live = false;
    };
  }, [onLoadAddresses]);

  const game = GAMES.get(gameId);
  const capacities = capacitiesOf(gameId);
  const defaultName = `${playerName}'s room`;
  const pickGame = (id: string): void => {
    const range = roomCapacityRange(GAMES.get(id));
    setGameId(id);
    // Keep the chosen size when the new game takes it, else the nearest it does.
    setCapacity((n) => Math.min(range.max, Math.max(range.min, n)));
  };
  const nameError = roomName.trim() === '' ? null : firstIssue(roomNameSchema.safeParse(roomName));
  const portError = port.trim() === '' ? null : firstIssue(portSchema.safeParse(Number(port.trim())));
  const graceError = grace.trim() === '' ? null : firstIssue(seatGraceSchema.safeParse(Number(grace.trim())));
  const invalid = nameError !== null || portError !== null || graceError !== null;

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (invalid || pending) return;
    setPending(true);
    setError(null);
    const result = await onHost({
      ...(roomName.trim() ? { roomName: roomName.trim() } : {}),
      gameId,
      capacity,
      ...(password ? { password } : {}),
      ...(port.trim() ? { port: Number(port.trim()) } : {}),
      ...(grace.trim() ? { seatGraceSec: Number(grace.trim()) } : {}),
      ...(address !== null && addresses.length > 0 ? { advertiseAddress: address } : {}),
      ...(reach === 'internet' ? { reach } : {}),
    });
    setPending(false);
    if (!result.ok) setError(result.message);
  };

  return (
    <section className="screen" aria-labelledby="host-title">
      <ScreenHeader
        title="Host a room"
        titleId="host-title"
        subtitle="Your computer runs the room; friends on this network join with its code."
        onBack={onBack}
      />
      <form className="card form-card" onSubmit={(event) => void submit(event)} noValidate>
        {/* Two columns on a wide window, so the whole form and its Open room button fit the default window. */}
        <div className="host-form-columns">
          <div className="host-form-column">
            <GamePicker games={GAMES.list()} value={gameId} onChange={pickGame} />
            <fieldset className="field reach-choice">
              <legend className="field-label">Who can join</legend>
              <div className="segmented" role="radiogroup" aria-label="Who can join">
                <label className={`segment${reach === 'lan' ? ' segment-on' : ''}`}>
                  <input
                    type="radio"
                    name="reach"
                    value="lan"
                    checked={reach === 'lan'}
                    onChange={() => setReach('lan')}
                  />
                  This network
                </label>
                <label
                  className={`segment${reach === 'internet' ? ' segment-on' : ''}${internetRooms !== 'off' ? '' : ' segment-off'}`}
                >
                  <input
                    type="radio"
                    name="reach"
                    value="internet"
                    checked={reach === 'internet'}
                    disabled={internetRooms === 'off'}
                    aria-describedby="reach-hint"
                    onChange={() => setReach('internet')}
                  />
                  Friends over the internet
                </label>
              </div>
              <p id="reach-hint" className="field-hint">
                {internetRooms === 'off' || reach === 'internet'
                  ? internetRoomsHint(internetRooms)
                  : 'Players on this network join with the room’s code or from their LAN list.'}
              </p>
            </fieldset>
          </div>
          <div className="host-form-column">
            <div className="field">
              <label className="field-label" htmlFor="room-name">
                Room name
              </label>
              <input
                id="room-name"
                className="input"
                type="text"
                placeholder={defaultName}
                maxLength={ROOM_NAME_MAX * 2}
                value={roomName}
                aria-invalid={nameError !== null}
                aria-describedby="room-name-hint"
                onChange={(event) => setRoomName(event.target.value)}
              />
              <p id="room-name-hint" className={nameError ? 'field-error' : 'field-hint'}>
                {nameError ?? `Leave empty for “${defaultName}”`}
              </p>
            </div>
            <div className="form-grid">
              <div className="field">
                <label className="field-label" htmlFor="room-capacity">
                  Players
                </label>
                <select
                  id="room-capacity"
                  className="input select"
                  value={capacity}
                  onChange={(event) => setCapacity(Number(event.target.value))}
                  aria-describedby="room-capacity-hint"
                >
                  {capacities.map((n) => (
                    <option key={n} value={n}>
                      {n} players
                    </option>
                  ))}
                </select>
                <p id="room-capacity-hint" className="field-hint">
                  You included · {game.name} takes {playerLimitsText(game)}
                </p>
              </div>
              <div className="field">
                <label className="field-label" htmlFor="room-password">
                  Password <span className="optional">optional</span>
                </label>
                <input
                  id="room-password"
                  className="input"
                  type="password"
                  autoComplete="new-password"
                  value={password}
                  aria-describedby="room-password-hint"
                  onChange={(event) => setPassword(event.target.value)}
                />
                <p id="room-password-hint" className="field-hint">
                  Players type it when they join
                </p>
              </div>
            </div>
            {addresses.length > 0 && address !== null && (
              <AddressPicker
                addresses={addresses}
                value={address}
                onChange={(entry) => {
                  setAddress(entry.address);
                  onRememberAddress?.(entry);
                }}
              />
            )}
          </div>
        </div>
        <details className="advanced">
          <summary>Advanced</summary>
          <WholeNumberField
            id="room-port"
            label="UDP port"
            placeholder={String(LAN_PARTY_PORTS.GAME)}
            value={port}
            error={portError}
            hint={`Leave empty for ${LAN_PARTY_PORTS.GAME}, or a free port if it is busy`}
            onChange={setPort}
          />
          <WholeNumberField
            id="room-seat-grace"
            label="Seat kept for (seconds)"
            placeholder={String(SEAT_GRACE.DEFAULT)}
            value={grace}
            error={graceError}
            hint={`How long a player who loses the connection keeps their seat and score to come back to, ${SEAT_GRACE.MIN}–${SEAT_GRACE.MAX} s; leave empty for ${SEAT_GRACE.DEFAULT}`}
            onChange={setGrace}
          />
        </details>
        {error && (
          <div className="alert alert-error" role="alert">
            <strong>Couldn’t open the room.</strong> {error}
          </div>
        )}
        <div className="form-actions">
          <button type="button" className="button button-ghost" onClick={onBack}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={pending || invalid}>
            {pending && <Spinner />}
            {pending ? 'Opening room…' : 'Open room'}
          </button>
        </div>
      </form>
    </section>
  );
}
