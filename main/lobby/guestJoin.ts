import { GAMES } from '../../shared/games/registry';
import { describeIssues } from '../../shared/ipc/describeIssues';
import { resumeKey, resumeProof } from './resumeProof';
import { LobbyMessage, hostMessageSchemas, type HostMessages } from '../../shared/lobby/lobbyMessages';
import { LOBBY_PROTOCOL_VERSION } from '../../shared/lobby/lobbyState';
import type { WireProtocol } from '../net/index';
import {
  JOIN_DROPPED_MESSAGE,
  LOBBY_END_MESSAGES,
  LobbyJoinError,
  tooManyTriesMessage,
  type LobbyEndCode,
} from './lobbyErrors';
import type { GuestPasswordAnswer, PasswordChallenge, PasswordProof } from './passwordExchange';
import { versionMismatchMessage } from './versionMismatch';

/** The refusal when a room asked for a password but could not prove it knew it: someone pretending to be it. */
export const HOST_UNPROVEN_MESSAGE =
  'This host did not prove it knows the room password: it may be someone pretending to be the room. You did not join. Check the room with the person hosting it.';

/** The refusal of a password challenge this build cannot answer (another version, or not a LAN Party host). */
export const CHALLENGE_UNREADABLE_MESSAGE =
  "The host's password check is not one this version of LAN Party can answer. Update both to the same version.";

/** The refusal of a password challenge over gale.net v1 although we offered the native path: the offer was lost. */
export const STRIPPED_OFFER_MESSAGE =
  'This password room asked for the password over the unprotected gale.net protocol although LAN Party offered its protected one: someone may be between you and the host. You did not join and your password was not used.';

/** The end of a rejoin that was asked for the password: the real host takes a seat's token instead, never asks. */
export const RESUME_CHALLENGED_MESSAGE =
  'The room asked for the password while you were coming back to your seat, which the real host never does: someone may be pretending to be the room. Your password was not used.';

/** Refusals after which trying to come back to the seat is pointless (or, for the last two, unsafe). */
const FINAL_REFUSALS: ReadonlySet<LobbyEndCode> = new Set([
  'seat-gone',
  'kicked',
  'host-closed',
  'version-mismatch',
  'invalid-room',
  'wrong-password',
]);

/** What a join knows before it starts; the password itself stays with the shell (only the key derivation needs it). */
export interface GuestJoinConfig {
  readonly passwordGiven: boolean;
  /** Whether our transport offers the native path (a challenge over v1 then means the offer was stripped). */
  readonly offersNative: boolean;
  /** Seconds the first join's admission may take once connected. */
  readonly timeoutSec: number;
  /** Seconds each try to take the seat back may take. */
  readonly rejoinTimeoutSec: number;
  /** Pause between tries to take the seat back, ms. */
  readonly retryMs: number;
  readonly appVersion?: string | undefined;
  /** A seat's token and resume key to come back with on the first connection already. */
  readonly resume?: { readonly token: string; readonly key?: string | undefined } | undefined;
}

/** A welcome as the schema checked it. */
export type Welcome = HostMessages['lobby.welcome'];

/** Where a join or a stay is. */
export type GuestJoinPhase = 'idle' | 'connecting' | 'admitting' | 'seated' | 'waiting' | 'ended';

/** The join's whole state: plain data, stepped by {@link stepGuestJoin}. */
export interface GuestJoinState {
  readonly config: GuestJoinConfig;
  readonly phase: GuestJoinPhase;
  /** Number of the connection in progress (or seated): inputs about any other are stale. */
  readonly attempt: number;
  /** admitting: when the try gives up; waiting: when the next try starts (ms). */
  readonly deadline: number;
  readonly protocol?: WireProtocol | undefined;
  /** The attempt's session secret so far (hex): the native channel binding, empty on v1. */
  readonly secret?: string | undefined;
  readonly challenged: boolean;
  readonly answer?: GuestPasswordAnswer | undefined;
  /** Our seat once welcomed: its id, the token to come back with, and how long the room holds it. */
  readonly seat?:
    | {
        readonly you: number;
        readonly resume?: string | undefined;
        /** The seat's resume key (resumeProof.ts): a rejoin proves it, the token alone is no proof. */
        readonly key?: string | undefined;
        readonly graceSec: number;
      }
    | undefined;
  /** Coming back to the seat: since when, until when (the grace), tries so far, the last failure. */
  readonly rejoin?:
    | { readonly started: number; readonly until: number; readonly tries: number; readonly lastError?: Error }
    | undefined;
}

/** What the shell tells the machine: its own start, the connection's news (tagged with its attempt), the clock. */
export type GuestJoinInput =
  | { readonly kind: 'start' }
  /** `connection`: the connection's id for a resume proof; `secret`: its session's secret so far (resumeProof.ts). */
  | {
      readonly kind: 'connected';
      readonly attempt: number;
      readonly protocol: WireProtocol;
      readonly connection: string;
      readonly secret: string;
    }
  /** The connect failed, in the shell's words (an errno sentence, the reach's own error). */
  | { readonly kind: 'failed'; readonly attempt: number; readonly error: Error }
  | { readonly kind: 'welcome'; readonly attempt: number; readonly payload: unknown }
  | { readonly kind: 'challenge'; readonly attempt: number; readonly payload: unknown }
  | { readonly kind: 'answered'; readonly attempt: number; readonly answer: GuestPasswordAnswer }
  | { readonly kind: 'unanswerable'; readonly attempt: number; readonly why: string }
  | { readonly kind: 'rejected'; readonly attempt: number; readonly payload: unknown }
  /** `silent`: the link timed out (worth coming back); otherwise the host ended it. */
  | { readonly kind: 'disconnected'; readonly attempt: number; readonly silent: boolean }
  /** A timer the machine asked for came due. */
  | { readonly kind: 'tick' }
  /** The stay ended otherwise (we left, the host closed or kicked us): stop. */
  | { readonly kind: 'over' };

/** What the shell does for the machine. */
export type GuestJoinEffect =
  | { readonly kind: 'connect'; readonly attempt: number; readonly timeoutSec: number }
  | { readonly kind: 'hello'; readonly resume?: { readonly token: string; readonly proof?: string | undefined } }
  /** Derive the room key and answer (async, in the shell); reply with `answered` or `unanswerable`. */
  | {
      readonly kind: 'derive';
      readonly challenge: PasswordChallenge;
      readonly protocol: WireProtocol;
      readonly nativeOffered: boolean;
    }
  | { readonly kind: 'proof'; readonly proof: PasswordProof }
  /** Let go of the attempt's connection. */
  | { readonly kind: 'close' }
  /** Send a `tick` at `at` (ms, the scheduler's clock); replaces any earlier request. */
  | { readonly kind: 'wake'; readonly at: number }
  /** The attempt's connection is the room's now; `back` when it took the seat back after losing the link. */
  | { readonly kind: 'entered'; readonly welcome: Welcome; readonly back?: { tookMs: number; tries: number } }
  /** The link went silent: show our seat away for the grace while coming back to it. */
  | { readonly kind: 'away'; readonly graceSec: number }
  /** The join failed, or the stay is over (then always a LobbyJoinError). */
  | { readonly kind: 'end'; readonly error: Error }
  | { readonly kind: 'warn'; readonly text: string };

/** One step's outcome. */
export interface GuestJoinStep {
  readonly state: GuestJoinState;
  readonly effects: readonly GuestJoinEffect[];
}

/** A join that has not started: feed it `start`. */
export function initialGuestJoin(config: GuestJoinConfig): GuestJoinState {
  return { config, phase: 'idle', attempt: 0, deadline: 0, challenged: false };
}

const error = (code: LobbyEndCode, message = LOBBY_END_MESSAGES[code]) => new LobbyJoinError(code, message);
const isFinal = (e: Error): e is LobbyJoinError => e instanceof LobbyJoinError && FINAL_REFUSALS.has(e.code);
const same = (state: GuestJoinState): GuestJoinStep => ({ state, effects: [] });

/**
 * The guest's join and rejoin as one pure step: `(state, input, now)` to the next state and what to do. It
 * connects, says hello, answers one password challenge (never while coming back to a seat, never over v1 when we
 * offered native), checks the welcome, and when a seated link goes silent tries to take the seat back once a
 * `retryMs` for the grace, ending at the room's final word. No socket, timer or clock read: `now` is given.
 */
export function stepGuestJoin(state: GuestJoinState, input: GuestJoinInput, now: number): GuestJoinStep {
  if (state.phase === 'ended') return same(state);
  switch (input.kind) {
    case 'start':
      return state.phase === 'idle' ? nextTry(state, now, []) : same(state);
    case 'tick':
      if (state.phase !== 'waiting' && state.phase !== 'admitting') return same(state);
      // A timer may fire a hair before its time on another clock: asked again rather than lost.
      if (now < state.deadline) return { state, effects: [{ kind: 'wake', at: state.deadline }] };
      if (state.phase === 'waiting') return nextTry(state, now, []);
      return fail(state, error('timeout'), now);
    case 'over': {
      const open = state.phase === 'connecting' || state.phase === 'admitting';
      return { state: { ...state, phase: 'ended' }, effects: open ? [{ kind: 'close' }] : [] };
    }
  }
  if (input.attempt !== state.attempt) return same(state);
  switch (input.kind) {
    case 'connected': {
      if (state.phase !== 'connecting') return same(state);
      const timeoutSec = state.rejoin ? state.config.rejoinTimeoutSec : state.config.timeoutSec;
      const deadline = now + timeoutSec * 1000;
      const token = state.rejoin ? state.seat?.resume : state.config.resume?.token;
      const key = state.rejoin ? state.seat?.key : state.config.resume?.key;
      const resume = token === undefined ? undefined : { token, proof: key && resumeProof(key, input.connection) };
      const next = { ...state, phase: 'admitting' as const, deadline, protocol: input.protocol, secret: input.secret };
      return {
        state: next,
        effects: [
          { kind: 'hello', ...(resume ? { resume } : {}) },
          { kind: 'wake', at: deadline },
        ],
      };
    }
    case 'failed':
      return state.phase === 'connecting' ? fail(state, input.error, now) : same(state);
    case 'disconnected':
      if (state.phase === 'seated') return linkLost(state, input.silent, now);
      return fail(state, new LobbyJoinError('host-closed', JOIN_DROPPED_MESSAGE), now);
  }
  if (state.phase !== 'admitting') return same(state);
  switch (input.kind) {
    case 'welcome':
      return welcomed(state, input.payload, now);
    case 'challenge':
      return challenged(state, input.payload, now);
    case 'answered':
      if (!state.challenged || state.answer) return same(state);
      return { state: { ...state, answer: input.answer }, effects: [{ kind: 'proof', proof: input.answer.proof }] };
    case 'unanswerable':
      return fail(state, new LobbyJoinError('invalid-room', CHALLENGE_UNREADABLE_MESSAGE), now, [
        { kind: 'warn', text: `the host sent a password challenge we cannot answer: ${input.why}` },
      ]);
    case 'rejected':
      return fail(state, refusalOf(input.payload, state.config.appVersion), now);
  }
}

/** The next connection (the first, or another try at the seat while the grace lasts). */
function nextTry(state: GuestJoinState, now: number, effects: GuestJoinEffect[]): GuestJoinStep {
  const { rejoin } = state;
  if (rejoin && now >= rejoin.until) return ended(state, seatLost(state, rejoin.lastError), effects);
  const attempt = state.attempt + 1;
  const timeoutSec = rejoin ? state.config.rejoinTimeoutSec : state.config.timeoutSec;
  const next: GuestJoinState = {
    ...state,
    phase: 'connecting',
    attempt,
    deadline: 0,
    protocol: undefined,
    challenged: false,
    answer: undefined,
    rejoin: rejoin && { ...rejoin, tries: rejoin.tries + 1 },
  };
  return { state: next, effects: [...effects, { kind: 'connect', attempt, timeoutSec }] };
}

/** A try failed: the join ends, or (coming back to a seat, and not the room's final word) the next one waits. */
function fail(state: GuestJoinState, why: Error, now: number, before: GuestJoinEffect[] = []): GuestJoinStep {
  const effects: GuestJoinEffect[] = [...before, { kind: 'close' }];
  const { rejoin } = state;
  if (!rejoin) return ended(state, why, effects);
  if (isFinal(why)) return ended(state, why, effects);
  const wait = Math.min(state.config.retryMs, rejoin.until - now);
  if (wait <= 0) return ended(state, seatLost(state, why), effects);
  const next = { ...state, phase: 'waiting' as const, deadline: now + wait, rejoin: { ...rejoin, lastError: why } };
  return { state: next, effects: [...effects, { kind: 'wake', at: now + wait }] };
}

function ended(state: GuestJoinState, why: Error, effects: GuestJoinEffect[]): GuestJoinStep {
  return { state: { ...state, phase: 'ended' }, effects: [...effects, { kind: 'end', error: why }] };
}

/** How a stay ends when the guest could not come back to its seat: the room's refusal, or the grace ran out. */
function seatLost(state: GuestJoinState, why: Error | undefined): LobbyJoinError {
  if (why && isFinal(why)) return why;
  return error('host-gone', `Lost contact with the host for ${state.seat?.graceSec ?? 0} s: your seat was given up.`);
}

/** The seated link ended: a silent one with a seat held for us means coming back to it; anything else ends. */
function linkLost(state: GuestJoinState, silent: boolean, now: number): GuestJoinStep {
  const { seat } = state;
  if (!silent || seat?.resume === undefined || seat.graceSec <= 0) {
    return ended(state, error(silent ? 'host-gone' : 'host-closed'), []);
  }
  const rejoin = { started: now, until: now + seat.graceSec * 1000, tries: 0 };
  return nextTry({ ...state, rejoin }, now, [{ kind: 'away', graceSec: seat.graceSec }]);
}

/** A challenge: one answer per connection, and none when coming back to a seat or when our native offer was lost. */
function challenged(state: GuestJoinState, payload: unknown, now: number): GuestJoinStep {
  if (state.challenged) return same(state);
  const { config } = state;
  const next = { ...state, challenged: true };
  if (state.rejoin || config.resume !== undefined) {
    const warn = 'the room challenged a resume, which its real host never does';
    return fail(next, error('invalid-room', RESUME_CHALLENGED_MESSAGE), now, [{ kind: 'warn', text: warn }]);
  }
  if (!config.passwordGiven) return fail(next, error('wrong-password'), now);
  const parsed = hostMessageSchemas[LobbyMessage.CHALLENGE].safeParse(payload);
  if (!parsed.success) {
    const text = `the host sent a password challenge we cannot answer: ${describeIssues(parsed.error)}`;
    return fail(next, error('invalid-room', CHALLENGE_UNREADABLE_MESSAGE), now, [{ kind: 'warn', text }]);
  }
  const protocol = state.protocol ?? 'v1';
  // Only a LAN Party host challenges (gale.net hosts run no lobby), and ours accepts native: the offer was stripped.
  if (protocol === 'v1' && config.offersNative) {
    const text = 'a password room challenged us over gale.net v1 although we offered native: the offer was stripped';
    return fail(next, error('invalid-room', STRIPPED_OFFER_MESSAGE), now, [{ kind: 'warn', text }]);
  }
  const derive = { kind: 'derive', challenge: parsed.data, protocol, nativeOffered: config.offersNative } as const;
  return { state: next, effects: [derive] };
}

/** A welcome: taken only from a room proven to be the real one, with a game we have, to our own seat. */
function welcomed(state: GuestJoinState, payload: unknown, now: number): GuestJoinStep {
  const parsed = hostMessageSchemas[LobbyMessage.WELCOME].safeParse(payload);
  if (!parsed.success) {
    const text = `the host sent an invalid room: ${describeIssues(parsed.error)}`;
    return fail(state, error('invalid-room'), now, [{ kind: 'warn', text }]);
  }
  const welcome = parsed.data;
  const resuming = state.rejoin !== undefined || state.config.resume !== undefined;
  if (state.challenged ? !state.answer?.hostConfirmed(welcome.confirm) : welcome.state.passwordProtected && !resuming) {
    const text = state.challenged
      ? "the host welcomed us without a valid password confirmation: it may not be the room's host"
      : 'a password room welcomed us without checking the password';
    return fail(state, error('invalid-room', HOST_UNPROVEN_MESSAGE), now, [{ kind: 'warn', text }]);
  }
  if (!GAMES.has(welcome.state.gameId)) {
    const message = `This room plays “${welcome.state.gameId.slice(0, 64)}”, a game this version of LAN Party does not have. Update LAN Party to join.`;
    return fail(state, error('version-mismatch', message), now);
  }
  const { seat, rejoin } = state;
  if (rejoin && seat && welcome.you !== seat.you) return fail(state, error('seat-gone'), now);
  const graceSec = seat?.graceSec ?? welcome.graceSec ?? 0;
  const next: GuestJoinState = {
    ...state,
    phase: 'seated',
    seat: { you: welcome.you, resume: welcome.resume, key: keyOf(state, welcome.resume), graceSec },
    rejoin: undefined,
  };
  const back = rejoin && { tookMs: now - rejoin.started, tries: rejoin.tries };
  return { state: next, effects: [{ kind: 'entered', welcome, ...(back ? { back } : {}) }] };
}

/**
 * The seat's resume key for a welcome's token, as the host derives it: rooted in the first session's secret (its
 * native binding and the password exchange's ISK) and carried on through each rejoin's.
 */
function keyOf(state: GuestJoinState, token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  const secret = state.secret ?? '';
  if (state.rejoin && state.seat?.key) return resumeKey(state.seat.key + secret, token);
  return resumeKey(secret + (state.answer?.isk ?? ''), token);
}

/** The host's refusal in the player's words. A reason we do not know comes from another version of LAN Party. */
function refusalOf(payload: unknown, ourApp: string | undefined): LobbyJoinError {
  const parsed = hostMessageSchemas[LobbyMessage.REJECTED].safeParse(payload);
  const notice = parsed.success ? parsed.data : undefined;
  const code: LobbyEndCode = notice?.reason ?? 'version-mismatch';
  const wait = notice?.retryAfterSec;
  const message =
    code === 'version-mismatch'
      ? versionMismatchMessage({
          hostApp: notice?.hostApp,
          hostProtocol: notice?.hostProtocol,
          ourApp,
          ourProtocol: LOBBY_PROTOCOL_VERSION,
        })
      : code === 'too-many-tries' && wait !== undefined
        ? tooManyTriesMessage(wait)
        : // Why a seat is gone only the host knows (away too long, another address…); bounded by the schema.
          code === 'seat-gone' && notice && notice.message.trim() !== ''
          ? notice.message
          : LOBBY_END_MESSAGES[code];
  const waitMs = notice?.retryAfterMs ?? (wait === undefined ? undefined : wait * 1000);
  return new LobbyJoinError(code, message, undefined, code === 'too-many-tries' ? waitMs : undefined);
}
