import { describe, expect, it } from 'vitest';
import { describeLobbyChanges, guestCount } from '../../../main/cli/lobbyLog';
import { formatHostBanner, type HostBannerInfo } from '../../../main/cli/hostBanner';
import { applyLobbyEvent } from '../../../shared/lobby/lobbyReducer';
import { createLobbyState, type LobbyEvent, type LobbyState } from '../../../shared/lobby/lobbyState';

const room = createLobbyState(
  { roomName: 'Friday LAN', capacity: 9, passwordProtected: false },
  { name: 'Dedicated host', colour: '#8890a0' },
);
const guest = (id: number, name: string) => ({ id, name, colour: '#22cc88', ready: false, host: false, pingMs: null });
const apply = (state: LobbyState, ...events: LobbyEvent[]) => events.reduce(applyLobbyEvent, state);

describe('describeLobbyChanges', () => {
  it('logs joins with the seat count (the host seat is not a player)', () => {
    const next = apply(room, { kind: 'joined', player: guest(1, 'Gus') });
    expect(guestCount(next)).toBe(1);
    expect(describeLobbyChanges(room, next, 8)).toEqual(['Gus joined as player 1 (1/8 players)']);
  });

  it('logs leaves, ready flags and chat in one step', () => {
    const two = apply(room, { kind: 'joined', player: guest(1, 'Gus') }, { kind: 'joined', player: guest(2, 'Ida') });
    const next = apply(
      two,
      { kind: 'ready', playerId: 2, ready: true },
      { kind: 'chat', line: { id: 1, from: 2, name: 'Ida', text: 'gg' } },
      { kind: 'left', playerId: 1, reason: 'left' },
    );
    expect(describeLobbyChanges(two, next, 8)).toEqual(['Gus left (1/8 players)', 'Ida is ready', '[chat] Ida: gg']);
    const unready = apply(next, { kind: 'ready', playerId: 2, ready: false });
    expect(describeLobbyChanges(next, unready, 8)).toEqual(['Ida is no longer ready']);
  });

  it('logs only chat lines that are new, even after old ones fell off', () => {
    const before = apply(room, { kind: 'chat', line: { id: 7, from: 0, name: 'x', text: 'old' } });
    const after = { ...before, chat: [{ id: 8, from: 0, name: 'Ida', text: 'new' }] };
    expect(describeLobbyChanges(before, after, 8)).toEqual(['[chat] Ida: new']);
  });

  it('logs the phase but not the ready reset that comes with returning to the lobby', () => {
    const ready = apply(room, { kind: 'joined', player: guest(1, 'Gus') }, { kind: 'ready', playerId: 1, ready: true });
    const playing = apply(ready, { kind: 'phase', phase: 'playing' });
    expect(describeLobbyChanges(ready, playing, 8)).toEqual(['Round started']);
    const lobby = apply(playing, { kind: 'phase', phase: 'lobby' });
    expect(describeLobbyChanges(playing, lobby, 8)).toEqual(['Round over: back in the lobby']);
  });

  it('says nothing about pings or the host seat', () => {
    const next = apply(room, { kind: 'pings', pings: [[0, 3]] }, { kind: 'ready', playerId: 0, ready: true });
    expect(describeLobbyChanges(room, next, 8)).toEqual([]);
  });
});

const banner: HostBannerInfo = {
  roomName: 'Friday LAN',
  code: 'ABCD-EFGH-J',
  port: 9000,
  maxPlayers: 8,
  passwordProtected: true,
  bindAddress: '0.0.0.0',
  addresses: [
    { interfaceName: 'eth0', address: '192.168.1.20' },
    { interfaceName: 'wg0', address: '100.64.0.3' },
  ],
  discovery: { port: 9998, announce: true },
};

describe('formatHostBanner', () => {
  it('shows the code, every address with the port, seats and discovery', () => {
    expect(formatHostBanner(banner)).toEqual([
      'LAN Party dedicated host: "Friday LAN"',
      'Room code: ABCD-EFGH-J',
      'Addresses: 192.168.1.20:9000 (eth0)',
      '           100.64.0.3:9000 (wg0)',
      'Players:   up to 8, password required',
      'Discovery: answering LAN searches on UDP 9998, announcing the room every 2 s',
      'Press Ctrl-C to close the room.',
    ]);
  });

  it('lists only the bound address when bound to one', () => {
    const lines = formatHostBanner({ ...banner, bindAddress: '127.0.0.1', passwordProtected: false, discovery: null });
    expect(lines).toContain('Addresses: 127.0.0.1:9000 (bound)');
    expect(lines.join('\n')).not.toContain('192.168.1.20');
    expect(lines).toContain('Players:   up to 8');
    expect(lines).toContain('Discovery: off (players join with the room code or an address)');
  });

  it('says so when the machine has no LAN address', () => {
    expect(formatHostBanner({ ...banner, addresses: [] })).toContain('Addresses: none found (no network connection?)');
  });
});
