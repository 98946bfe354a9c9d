import { describe, expect, it } from 'vitest';
import { applyLobbyEvent } from '../../../shared/lobby/lobbyReducer';
import { createLobbyState } from '../../../shared/lobby/lobbyState';
import {
  LobbyMessage,
  guestMessageSchemas,
  helloPayload,
  hostMessageSchemas,
  lobbyStateSchema,
} from '../../../shared/lobby/lobbyMessages';

const base = () =>
  createLobbyState({ roomName: 'Room', capacity: 4, passwordProtected: false }, { name: 'Host', colour: '#a3e048' });
const guest = (id: number) => ({ id, name: `G${id}`, colour: '#3ddc97', ready: false, host: false, pingMs: null });

describe('a guest away and back (seat holding)', () => {
  it('updates a player already in the room in place: away, then back, keeping its place in the list', () => {
    let s = [guest(1), guest(2)].reduce((state, player) => applyLobbyEvent(state, { kind: 'joined', player }), base());
    s = applyLobbyEvent(s, { kind: 'joined', player: { ...guest(1), ready: true, awayUntil: 1_700_000_030_000 } });
    expect(s.players.map((p) => [p.id, p.awayUntil])).toEqual([
      [0, undefined],
      [1, 1_700_000_030_000],
      [2, undefined],
    ]);
    expect(s.players[1]?.ready).toBe(true);
    s = applyLobbyEvent(s, { kind: 'joined', player: { ...guest(1), ready: true } });
    expect(s.players.map((p) => p.id)).toEqual([0, 1, 2]);
    expect(s.players[1]?.awayUntil).toBeUndefined();
  });

  it('carries awayUntil in the room a guest receives, and refuses a malformed one', () => {
    const room = (awayUntil: unknown) => ({ ...base(), players: [...base().players, { ...guest(1), awayUntil }] });
    expect(lobbyStateSchema.parse(room(1_700_000_030_000)).players[1]?.awayUntil).toBe(1_700_000_030_000);
    for (const bad of [-1, 1.5, 'soon']) expect(lobbyStateSchema.safeParse(room(bad)).success).toBe(false);
  });

  it('sends the resume token in the hello only when coming back, bounded', () => {
    expect(helloPayload('Gus', '#3ddc97')).not.toHaveProperty('resume');
    const back = helloPayload('Gus', '#3ddc97', '1.0.0', { token: 'a'.repeat(63), proof: 'f'.repeat(64) });
    expect(guestMessageSchemas[LobbyMessage.HELLO].parse(back)).toMatchObject({
      resume: 'a'.repeat(63),
      resumeProof: 'f'.repeat(64),
    });
    expect(guestMessageSchemas[LobbyMessage.HELLO].safeParse({ ...back, resumeProof: 'not hex' }).success).toBe(false);
    expect(guestMessageSchemas[LobbyMessage.HELLO].safeParse({ ...back, resume: 'a'.repeat(129) }).success).toBe(false);
  });

  it('gives the token and the grace in the welcome (absent from older hosts), and says why a seat is gone', () => {
    const state = applyLobbyEvent(base(), { kind: 'joined', player: guest(1) });
    const welcome = hostMessageSchemas[LobbyMessage.WELCOME];
    expect(welcome.parse({ you: 1, state, resume: 'b'.repeat(63), graceSec: 30 })).toMatchObject({ graceSec: 30 });
    expect(welcome.parse({ you: 1, state })).not.toHaveProperty('resume');
    expect(welcome.safeParse({ you: 1, state, graceSec: 601 }).success).toBe(false);
    const gone = { reason: 'seat-gone', message: 'Your seat was given up.' };
    expect(hostMessageSchemas[LobbyMessage.REJECTED].parse(gone)).toEqual(gone);
  });
});
