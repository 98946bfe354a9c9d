import { describe, expect, it } from 'vitest';
import { resumeKey, resumeProof } from '../../../main/lobby/resumeProof';
import {
  initialGuestJoin,
  stepGuestJoin,
  type GuestJoinConfig,
  type GuestJoinEffect,
  type GuestJoinInput,
  type GuestJoinState,
} from '../../../main/lobby/guestJoin';
import { LOBBY_PALETTE } from '../../../shared/lobby/lobbyPalette';
import { PASSWORD_SUITE } from '../../../shared/lobby/lobbyMessages';
import { createLobbyState } from '../../../shared/lobby/lobbyState';

/** The id of every test connection (its token, hex). */
const CONNECTION = '0000000000000001';

const CONFIG: GuestJoinConfig = {
  passwordGiven: true,
  offersNative: true,
  timeoutSec: 5,
  rejoinTimeoutSec: 2,
  retryMs: 1000,
};

const room = (you: number) => {
  const state = createLobbyState(
    { roomName: 'Friday LAN', capacity: 8, passwordProtected: false },
    { name: 'Hana', colour: LOBBY_PALETTE[0] },
  );
  const guest = { id: you, name: 'Gus', colour: LOBBY_PALETTE[1]!, ready: false, host: false, pingMs: null };
  return { ...state, players: [...state.players, guest] };
};
const welcome = (you: number) => ({ you, state: room(you), resume: 'r'.repeat(63), graceSec: 5 });
const challenge = {
  suite: PASSWORD_SUITE,
  salt: 'A'.repeat(22),
  sid: 'A'.repeat(22),
  share: 'A'.repeat(67),
};

/** A machine driven by hand: each input at the time given, the effects of every step kept. */
function drive(config: Partial<GuestJoinConfig> = {}) {
  let state: GuestJoinState = initialGuestJoin({ ...CONFIG, ...config });
  let now = 0;
  const log: GuestJoinEffect[] = [];
  const feed = (input: GuestJoinInput, at = now) => {
    now = at;
    const step = stepGuestJoin(state, input, now);
    state = step.state;
    log.push(...step.effects);
    return step.effects;
  };
  return {
    feed,
    log,
    get state() {
      return state;
    },
  };
}

/** Joins and sits down as player 4 (the first welcome). */
function seated(config: Partial<GuestJoinConfig> = {}) {
  const m = drive(config);
  m.feed({ kind: 'start' });
  m.feed({ kind: 'connected', attempt: 1, protocol: 'native', connection: CONNECTION, secret: '' });
  m.feed({ kind: 'welcome', attempt: 1, payload: welcome(4) });
  expect(m.state.phase).toBe('seated');
  return m;
}

const kinds = (effects: readonly GuestJoinEffect[]) => effects.map((e) => e.kind);

describe('the guest join step', () => {
  it('connects, says hello and enters on a welcome', () => {
    const m = drive();
    expect(m.feed({ kind: 'start' })).toEqual([{ kind: 'connect', attempt: 1, timeoutSec: 5 }]);
    expect(
      m.feed({ kind: 'connected', attempt: 1, protocol: 'native', connection: CONNECTION, secret: '' }, 10),
    ).toEqual([
      { kind: 'hello', resume: undefined },
      { kind: 'wake', at: 5010 },
    ]);
    expect(kinds(m.feed({ kind: 'welcome', attempt: 1, payload: welcome(4) }))).toEqual(['entered']);
  });

  it('times out an admission at its deadline, not before', () => {
    const m = drive();
    m.feed({ kind: 'start' });
    m.feed({ kind: 'connected', attempt: 1, protocol: 'native', connection: CONNECTION, secret: '' });
    // A timer that fires a hair early is asked for again, not lost.
    expect(m.feed({ kind: 'tick' }, 4999)).toEqual([{ kind: 'wake', at: 5000 }]);
    const end = m.feed({ kind: 'tick' }, 5000);
    expect(kinds(end)).toEqual(['close', 'end']);
    expect(end[1]).toMatchObject({ error: { code: 'timeout' } });
  });

  it('answers one challenge on native by deriving in the shell, then sends the proof it gets back', () => {
    const m = drive();
    m.feed({ kind: 'start' });
    m.feed({ kind: 'connected', attempt: 1, protocol: 'native', connection: CONNECTION, secret: '' });
    expect(m.feed({ kind: 'challenge', attempt: 1, payload: challenge })).toEqual([
      { kind: 'derive', challenge, protocol: 'native', nativeOffered: true },
    ]);
    expect(m.feed({ kind: 'challenge', attempt: 1, payload: challenge })).toEqual([]); // one answer per join
    const proof = { share: 's', tag: 't' };
    const answer = { proof, hostConfirmed: () => false, isk: '' };
    expect(m.feed({ kind: 'answered', attempt: 1, answer })).toEqual([{ kind: 'proof', proof }]);
    // The host did not confirm: not the real room.
    const refused = m.feed({ kind: 'welcome', attempt: 1, payload: welcome(4) });
    expect(refused.at(-1)).toMatchObject({ kind: 'end', error: { code: 'invalid-room' } });
  });

  it('refuses a challenge over v1 when it offered native (the offer was stripped), never deriving', () => {
    const m = drive();
    m.feed({ kind: 'start' });
    m.feed({ kind: 'connected', attempt: 1, protocol: 'v1', connection: CONNECTION, secret: '' });
    const effects = m.feed({ kind: 'challenge', attempt: 1, payload: challenge });
    expect(kinds(effects)).toEqual(['warn', 'close', 'end']);
    expect(effects.at(-1)).toMatchObject({ error: { code: 'invalid-room', message: /between you and the host/ } });
    // A guest that never offered native answers on v1 (a gale.net-only transport).
    const plain = drive({ offersNative: false });
    plain.feed({ kind: 'start' });
    plain.feed({ kind: 'connected', attempt: 1, protocol: 'v1', connection: CONNECTION, secret: '' });
    expect(kinds(plain.feed({ kind: 'challenge', attempt: 1, payload: challenge }))).toEqual(['derive']);
  });

  it('comes back to its seat after a silent drop: once a second for the grace, then gives up', () => {
    const m = seated();
    const lost = m.feed({ kind: 'disconnected', attempt: 1, silent: true }, 1000);
    expect(lost).toEqual([
      { kind: 'away', graceSec: 5 },
      { kind: 'connect', attempt: 2, timeoutSec: 2 },
    ]);
    const over = () => m.state.phase === 'ended';
    let t = 1000;
    for (let attempt = 2; !over() && attempt < 20; attempt++) {
      m.feed({ kind: 'failed', attempt, error: new Error('timed out') }, t);
      if (!over()) m.feed({ kind: 'tick' }, (t += 1000));
    }
    const connects = m.log.filter((e) => e.kind === 'connect').length;
    expect(connects).toBe(1 + 5); // the first join, then five tries in the 5 s grace
    expect(m.log.at(-1)).toMatchObject({
      kind: 'end',
      error: { code: 'host-gone', message: 'Lost contact with the host for 5 s: your seat was given up.' },
    });
  });

  it('sends the seat’s token on a rejoin and takes the seat back (the same one only)', () => {
    const m = seated();
    m.feed({ kind: 'disconnected', attempt: 1, silent: true }, 1000);
    expect(
      m.feed({ kind: 'connected', attempt: 2, protocol: 'native', connection: CONNECTION, secret: '' }, 1200)[0],
    ).toEqual({
      kind: 'hello',
      // Not the token alone: the proof of the seat's key (from the token and the welcomed session) on this connection.
      resume: { token: 'r'.repeat(63), proof: resumeProof(resumeKey('', 'r'.repeat(63)), CONNECTION) },
    });
    const back = m.feed({ kind: 'welcome', attempt: 2, payload: welcome(4) }, 1300);
    expect(back).toEqual([expect.objectContaining({ kind: 'entered', back: { tookMs: 300, tries: 1 } })]);
    // Another seat's welcome is no seat of ours: final.
    m.feed({ kind: 'disconnected', attempt: 2, silent: true }, 2000);
    m.feed({ kind: 'connected', attempt: 3, protocol: 'native', connection: CONNECTION, secret: '' }, 2100);
    expect(m.feed({ kind: 'welcome', attempt: 3, payload: welcome(5) }).at(-1)).toMatchObject({
      error: { code: 'seat-gone' },
    });
  });

  it('never answers a challenge while coming back, and takes wrong-password and invalid-room as final', () => {
    for (const [input, code] of [
      [{ kind: 'challenge', attempt: 2, payload: challenge }, 'invalid-room'],
      [{ kind: 'rejected', attempt: 2, payload: { reason: 'wrong-password', message: 'no' } }, 'wrong-password'],
      [{ kind: 'welcome', attempt: 2, payload: { you: 4 } }, 'invalid-room'],
    ] as const) {
      const m = seated();
      m.feed({ kind: 'disconnected', attempt: 1, silent: true }, 1000);
      m.feed({ kind: 'connected', attempt: 2, protocol: 'native', connection: CONNECTION, secret: '' }, 1100);
      const effects = m.feed(input, 1200);
      expect(kinds(effects)).not.toContain('derive');
      expect(effects.at(-1)).toMatchObject({ kind: 'end', error: { code } });
      expect(m.state.phase).toBe('ended');
    }
  });

  it('ignores the news of an older connection, and stops once the stay is over', () => {
    const m = seated();
    m.feed({ kind: 'disconnected', attempt: 1, silent: true }, 1000);
    expect(m.feed({ kind: 'welcome', attempt: 1, payload: welcome(4) })).toEqual([]);
    expect(m.feed({ kind: 'over' })).toEqual([{ kind: 'close' }]);
    expect(m.feed({ kind: 'connected', attempt: 2, protocol: 'native', connection: CONNECTION, secret: '' })).toEqual(
      [],
    );
    // A drop the host made (not silence) ends the stay at once.
    const closed = seated();
    expect(closed.feed({ kind: 'disconnected', attempt: 1, silent: false }).at(-1)).toMatchObject({
      error: { code: 'host-closed' },
    });
  });
});
