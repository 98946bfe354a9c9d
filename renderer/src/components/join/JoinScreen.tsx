import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { LobbyView } from '../../../../shared/ipc/schemas/lobby';
import { LAN_PARTY_PORTS } from '../../../../shared/netcheck/ports';
import { looksLikeInternetCode } from '../../../../shared/rendezvous';
import { parseHostPort } from '../../logic/hostPort';
import { joinFailureView } from '../../logic/joinFailure';
import { roomCodeHint } from '../../logic/roomCodeHint';
import type { ActionResult } from '../../state/actionResult';
import type { JoinPrefill } from '../../state/shellSlice';
import { JoinFailureAlert } from './JoinFailureAlert';
import { RoomCodeInput } from './RoomCodeInput';
import { ScreenHeader } from '../common/ScreenHeader';
import { Spinner } from '../common/Spinner';

type Failure = Extract<ActionResult, { ok: false }>;

/** What an internet join is doing, in words (the backend reports the step). */
const JOIN_STEPS = {
  'finding-host': 'Finding the host…',
  'trying-direct': 'Trying a direct path…',
  'using-relay': 'Using the relay…',
} as const;
type Method = 'code' | 'address';

/**
 * Join by code (formats as typed, explains a wrong character precisely) or by host:port. Shows progress
 * while connecting, and asks for the password when the room wants one. A room link fills the code in
 * (`prefill`) and leaves the joining to the player's click.
 */
export function JoinScreen({
  lobby,
  prefill,
  onPrefillUsed,
  onJoinCode,
  onJoinAddress,
  onCancel,
  onBack,
  onOpenNetcheck,
}: {
  lobby: LobbyView;
  prefill: JoinPrefill | null;
  onPrefillUsed: () => void;
  /** `probe: false` is "Try anyway": connect without asking the address first. */
  onJoinCode: (code: string, password?: string, probe?: boolean) => Promise<ActionResult>;
  onJoinAddress: (host: string, port: number, password?: string) => Promise<ActionResult>;
  onCancel: () => void;
  onBack: () => void;
  onOpenNetcheck: () => void;
}) {
  const [code, setCode] = useState(prefill?.code ?? '');
  const [fromLink, setFromLink] = useState(false);
  const [address, setAddress] = useState('');
  const [addressTouched, setAddressTouched] = useState(false);
  const [password, setPassword] = useState('');
  const [needsPassword, setNeedsPassword] = useState<Method | null>(null);
  const [pending, setPending] = useState<Method | null>(null);
  const [failure, setFailure] = useState<{ method: Method; result: Failure } | null>(null);
  const passwordField = useRef<HTMLInputElement>(null);

  const hint = roomCodeHint(code);
  const parsedAddress = parseHostPort(address, LAN_PARTY_PORTS.GAME);
  const addressError = addressTouched && address.trim() !== '' && !parsedAddress.ok ? parsedAddress.message : null;

  useEffect(() => {
    if (needsPassword) passwordField.current?.focus();
  }, [needsPassword, failure]);

  // A link clicked now or before this screen opened: fill its code in once, then let the store forget it.
  useEffect(() => {
    if (!prefill) return;
    setCode(prefill.code);
    setFromLink(true);
    setFailure(null);
    setNeedsPassword(null);
    onPrefillUsed();
  }, [prefill, onPrefillUsed]);

  const finish = (method: Method, result: ActionResult): void => {
    setPending(null);
    if (result.ok) return;
    setFailure({ method, result });
    if (joinFailureView(result.code).askPassword) setNeedsPassword(method);
  };

  const joinCode = async (probe = true): Promise<void> => {
    if (pending) return;
    setPending('code');
    setFailure(null);
    const secret = needsPassword === 'code' ? password : undefined;
    finish('code', await onJoinCode(code, secret, probe ? undefined : false));
  };

  const joinAddress = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setAddressTouched(true);
    if (pending || !parsedAddress.ok) return;
    setPending('address');
    setFailure(null);
    const secret = needsPassword === 'address' ? password : undefined;
    finish('address', await onJoinAddress(parsedAddress.host, parsedAddress.port, secret));
  };

  const connecting = lobby.status === 'joining' && lobby.target;
  const failureFor = (method: Method) =>
    failure?.method === method &&
    !pending && (
      <JoinFailureAlert
        failure={failure.result}
        onOpenNetcheck={onOpenNetcheck}
        // A silent address may still be a gale.net server without discovery: connecting is the only way to know.
        // An internet code has no address to try: the rendezvous's answer is final.
        {...(method === 'code' && failure.result.code === 'not-found' && !looksLikeInternetCode(code)
          ? { onTryAnyway: () => void joinCode(false) }
          : {})}
      />
    );
  const passwordRow = (method: Method) =>
    needsPassword === method && (
      <div className="field password-field">
        <label className="field-label" htmlFor={`join-password-${method}`}>
          Room password
        </label>
        <input
          ref={passwordField}
          id={`join-password-${method}`}
          className="input"
          type="password"
          autoComplete="off"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </div>
    );

  return (
    <section className="screen" aria-labelledby="join-title">
      <ScreenHeader
        title="Join a room"
        titleId="join-title"
        subtitle="Type the code the host reads out (short, full, or an internet NET- code), or their address."
        onBack={onBack}
      />
      <form
        className="card form-card join-card"
        onSubmit={(event) => {
          event.preventDefault();
          void joinCode();
        }}
        noValidate
      >
        <label className="field-label" htmlFor="room-code">
          Room code
        </label>
        <RoomCodeInput
          id="room-code"
          value={code}
          onChange={(next) => {
            setCode(next);
            setFromLink(false);
            if (needsPassword === 'code') setNeedsPassword(null);
            // An error about the code as it was must not stay up while a new one is typed.
            if (failure?.method === 'code' && next !== code) setFailure(null);
          }}
          invalid={hint.tone === 'error'}
          describedBy="room-code-hint"
          disabled={pending !== null}
        />
        <p id="room-code-hint" className={`code-hint code-hint-${hint.tone}`} aria-live="polite">
          {hint.text}
        </p>
        {fromLink && !pending && (
          <p className="field-hint" role="status">
            Filled in from an invite link. Check the room, then press Join room.
          </p>
        )}
        {passwordRow('code')}
        {failureFor('code')}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={pending !== null || !hint.ready}>
            {pending === 'code' && <Spinner />}
            {pending === 'code' ? 'Joining…' : 'Join room'}
          </button>
        </div>
      </form>

      {connecting && (
        <div className="card progress-card" role="status" aria-live="polite">
          <Spinner />
          <span data-testid="join-progress">
            {lobby.joinStep ? JOIN_STEPS[lobby.joinStep] : `Connecting to ${lobby.target?.host}:${lobby.target?.port}…`}
          </span>
          <button type="button" className="button button-ghost button-small" onClick={onCancel}>
            Cancel
          </button>
        </div>
      )}

      <div className="divider" role="separator">
        <span>or join by address</span>
      </div>
      <form className="card form-card" onSubmit={(event) => void joinAddress(event)} noValidate>
        <div className="field">
          <label className="field-label" htmlFor="join-address">
            Host address
          </label>
          <div className="inline-row">
            <input
              id="join-address"
              className="input"
              type="text"
              spellCheck={false}
              autoComplete="off"
              placeholder={`192.168.1.20:${LAN_PARTY_PORTS.GAME}`}
              value={address}
              aria-invalid={addressError !== null}
              aria-describedby="join-address-hint"
              disabled={pending !== null}
              onChange={(event) => {
                setAddress(event.target.value);
                if (needsPassword === 'address') setNeedsPassword(null);
              }}
              onBlur={() => setAddressTouched(true)}
            />
            <button type="submit" className="button button-ghost" disabled={pending !== null || address.trim() === ''}>
              {pending === 'address' && <Spinner />}
              {pending === 'address' ? 'Joining…' : 'Join'}
            </button>
          </div>
          <p id="join-address-hint" className={addressError ? 'field-error' : 'field-hint'}>
            {addressError ?? `An IP address or computer name; the port defaults to ${LAN_PARTY_PORTS.GAME}`}
          </p>
        </div>
        {passwordRow('address')}
        {failureFor('address')}
      </form>
    </section>
  );
}
