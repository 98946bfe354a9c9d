import { describe, expect, it } from 'vitest';
import { applyLobbyEvent, canStart } from '../../../shared/lobby/lobbyReducer';
import { MAX_CHAT_LINES, createLobbyState, type LobbyEvent } from '../../../shared/lobby/lobbyState';
import {
  chatTextSchema,
  hostMessageSchemas,
  lobbyStateSchema,
  playerNameSchema,
} from '../../../shared/lobby/lobbyMessages';

const base = () =>
  createLobbyState({ roomName: 'Room', capacity: 4, passwordProtected: false }, { name: 'Host', colour: '#a3e048' });
const guest = (id: number) => ({ id, name: `G${id}`, colour: '#3ddc97', ready: false, host: false, pingMs: null });

describe('lobby reducer', () => {
  it('is deterministic: the same events give the same state', () => {
    const events: LobbyEvent[] = [
      { kind: 'joined', player: guest(1) },
      { kind: 'joined', player: guest(2) },
      { kind: 'ready', playerId: 1, ready: true },
      { kind: 'chat', line: { id: 1, from: 1, name: 'G1', text: 'hi' } },
      {
        kind: 'pings',
        pings: [
          [1, 12],
          [2, null],
        ],
      },
      { kind: 'left', playerId: 2, reason: 'left' },
    ];
    const a = events.reduce(applyLobbyEvent, base());
    const b = events.reduce(applyLobbyEvent, base());
    expect(a).toEqual(b);
    expect(a.revision).toBe(6);
    expect(a.players.map((p) => [p.id, p.ready, p.pingMs])).toEqual([
      [0, false, null],
      [1, true, 12],
    ]);
    expect(a.chat).toHaveLength(1);
  });

  it('does not mutate the previous state', () => {
    const s0 = base();
    const copy = structuredClone(s0);
    applyLobbyEvent(s0, { kind: 'joined', player: guest(1) });
    expect(s0).toEqual(copy);
  });

  it('keeps only the last chat lines', () => {
    let s = base();
    for (let i = 0; i < MAX_CHAT_LINES + 20; i++)
      s = applyLobbyEvent(s, { kind: 'chat', line: { id: i, from: 0, name: 'Host', text: `${i}` } });
    expect(s.chat).toHaveLength(MAX_CHAT_LINES);
    expect(s.chat[0]!.id).toBe(20);
  });

  it('can start only with two or more players and every guest ready; back in the lobby, ready resets', () => {
    let s = base();
    expect(canStart(s)).toBe(false);
    s = applyLobbyEvent(s, { kind: 'joined', player: guest(1) });
    expect(canStart(s)).toBe(false);
    s = applyLobbyEvent(s, { kind: 'ready', playerId: 1, ready: true });
    expect(canStart(s)).toBe(true);
    s = applyLobbyEvent(s, { kind: 'phase', phase: 'playing' });
    expect(canStart(s)).toBe(false);
    s = applyLobbyEvent(s, { kind: 'phase', phase: 'lobby' });
    expect(s.players.every((p) => !p.ready)).toBe(true);
  });

  it('says which game the room plays (tag unless chosen), and never starts a game this build lacks', () => {
    expect(base().gameId).toBe('tag');
    const chosen = createLobbyState(
      { roomName: 'R', capacity: 4, passwordProtected: false, gameId: 'tag' },
      { name: 'Host', colour: '#ff0000' },
    );
    expect(chosen.gameId).toBe('tag');
    let s = applyLobbyEvent(base(), { kind: 'joined', player: { ...guest(1), ready: true } });
    expect(canStart(s)).toBe(true);
    s = { ...s, gameId: 'chess' };
    expect(canStart(s)).toBe(false);
    expect(applyLobbyEvent(s, { kind: 'ready', playerId: 1, ready: false }).gameId).toBe('chess');
  });
});

describe('lobby state on the wire', () => {
  const wire = { ...base(), gameId: undefined };

  it('reads a state without a game (an older LAN Party host) as a tag room', () => {
    expect(lobbyStateSchema.parse(wire).gameId).toBe('tag');
    // A welcome must list the guest it welcomes.
    const withGuest = { ...wire, players: [...wire.players, guest(1)] };
    const welcome = hostMessageSchemas['lobby.welcome'].parse({ you: 1, state: JSON.parse(JSON.stringify(withGuest)) });
    expect(welcome.state).toEqual({ ...base(), players: [...base().players, guest(1)] });
  });

  it('keeps another game’s id for the guest to refuse by name, and rejects a malformed one', () => {
    expect(lobbyStateSchema.parse({ ...wire, gameId: 'chess' }).gameId).toBe('chess');
    expect(lobbyStateSchema.safeParse({ ...wire, gameId: 7 }).success).toBe(false);
    expect(lobbyStateSchema.safeParse({ ...wire, gameId: 'x'.repeat(65) }).success).toBe(false);
  });

  it('takes a guest’s path when it is one of lan/direct/relayed, none from an older host, and refuses others', () => {
    const withPath = (path: unknown) => ({ ...wire, players: [...wire.players, { ...guest(1), path }] });
    expect(lobbyStateSchema.parse(withPath('relayed')).players[1]!.path).toBe('relayed');
    expect(lobbyStateSchema.parse({ ...wire, players: [...wire.players, guest(1)] }).players[1]!.path).toBeUndefined();
    expect(lobbyStateSchema.safeParse(withPath('carrier pigeon')).success).toBe(false);
  });
});

describe('lobby input schemas', () => {
  it('normalises names and chat, refuses hidden characters in names, strips them from chat, and bounds lengths', () => {
    expect(playerNameSchema.parse('  Ada  Lovelace ')).toBe('Ada Lovelace');
    expect(playerNameSchema.safeParse('Ada\u0007').success).toBe(false);
    expect(playerNameSchema.safeParse('Ada\u202e').success).toBe(false);
    expect(playerNameSchema.safeParse('   ').success).toBe(false);
    expect(playerNameSchema.safeParse('\u200b\u3164').success).toBe(false);
    expect(playerNameSchema.safeParse('x'.repeat(25)).success).toBe(false);
    expect(chatTextSchema.parse(' gg\n wp ')).toBe('gg wp');
    expect(chatTextSchema.parse('hi\u202egnp.exe')).toBe('hignp.exe');
    expect(chatTextSchema.safeParse('x'.repeat(201)).success).toBe(false);
    expect(chatTextSchema.safeParse('x'.repeat(5000)).error?.issues[0]?.message).toBe('Message is far too long');
  });
});
