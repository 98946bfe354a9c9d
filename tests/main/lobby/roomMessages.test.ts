import { describe, expect, it } from 'vitest';
import { describeHostFailure, firewallTip } from '../../../main/lobby/openRoom';
import { describeJoinFailure, JOIN_ERROR_CODES } from '../../../main/lobby/joinFailure';
import { roomCodeFailure } from '../../../main/reach/lan/index';
import { defaultRoomName, lobbyNameOf } from '../../../main/lobby/lobbyNames';
import { LobbyJoinError, LOBBY_END_MESSAGES, tooManyTriesMessage } from '../../../main/lobby/lobbyErrors';
import { BindError } from '../../../main/net/errors';
import { IpcError } from '../../../shared/ipc/errors';
import { RoomCodeError } from '../../../shared/roomCode';

describe('host failures in words a player can act on', () => {
  it('a busy port suggests another one or leaving it empty', () => {
    const error = describeHostFailure(new BindError(9000, '0.0.0.0', 'EADDRINUSE', 'busy'), {
      port: 9000,
      platform: 'linux',
    });
    expect(error).toBeInstanceOf(IpcError);
    expect(error.code).toBe('failed-precondition');
    expect(error.message).toBe(
      'UDP port 9000 is already in use by another program or another LAN Party room. ' +
        'Choose another port (for example 9001), or leave the port empty to use a free one.',
    );
  });

  it('permission denied explains low ports, and otherwise the firewall for the platform', () => {
    const low = describeHostFailure(new BindError(80, '0.0.0.0', 'EACCES', 'x'), { port: 80, platform: 'linux' });
    expect(low.code).toBe('permission-denied');
    expect(low.message).toContain('ports below 1024 need administrator rights');
    const win = describeHostFailure(new BindError(9000, '0.0.0.0', 'EACCES', 'x'), { port: 9000, platform: 'win32' });
    expect(win.message).toContain('Allow an app through firewall, tick Private for LAN Party');
    const mac = describeHostFailure(new BindError(9000, '0.0.0.0', 'EACCES', 'x'), { port: 9000, platform: 'darwin' });
    expect(mac.message).toContain('System Settings › Network › Firewall');
  });

  it('other failures name the code and point to the network check', () => {
    const odd = describeHostFailure(new BindError(9000, '10.0.0.9', 'EADDRNOTAVAIL', 'x'), {
      port: 9000,
      platform: 'linux',
    });
    expect(odd.message).toContain('does not belong to this computer');
    const unknown = describeHostFailure(new Error('weird'), { port: 9000, platform: 'linux' });
    expect(unknown).toMatchObject({ code: 'unavailable' });
    expect(unknown.message).toContain('Network check');
  });

  it('firewall tips name the port on Linux and other systems', () => {
    expect(firewallTip('linux', 9100)).toContain('sudo ufw allow 9100/udp');
    expect(firewallTip('freebsd', 9100)).toBe('Allow UDP port 9100 through your firewall.');
  });
});

describe('join failures', () => {
  it('maps every lobby end code, and only a password problem to permission-denied', () => {
    expect(Object.keys(JOIN_ERROR_CODES).sort()).toEqual(Object.keys(LOBBY_END_MESSAGES).sort());
    const denied = Object.entries(JOIN_ERROR_CODES).filter(([, code]) => code === 'permission-denied');
    expect(denied.map(([reason]) => reason)).toEqual(['wrong-password']);
  });

  it('tells a missing password from a wrong one, and passes other messages through', () => {
    const wrong = new LobbyJoinError('wrong-password', LOBBY_END_MESSAGES['wrong-password']);
    expect(describeJoinFailure(wrong, false).message).toBe('This room needs a password.');
    expect(describeJoinFailure(wrong, true).message).toBe('Wrong password for this room. Check it with the host.');
    const full = describeJoinFailure(new LobbyJoinError('full', LOBBY_END_MESSAGES.full), false);
    expect(full).toMatchObject({ code: 'failed-precondition', message: 'The room is full.' });
    const version = describeJoinFailure(new LobbyJoinError('version-mismatch', 'x'), false);
    expect(version.code).toBe('failed-precondition');
  });

  it('turns a room code error into a sentence and rethrows anything unexpected', () => {
    const code = roomCodeFailure(new RoomCodeError('check-mismatch', 'room code check character does not match'));
    expect(code).toMatchObject({ code: 'invalid-argument', message: 'Room code check character does not match.' });
    const bug = new TypeError('bug');
    expect(() => describeJoinFailure(bug, false)).toThrow(bug);
  });
});

describe('names in the lobby', () => {
  it('keeps names within the lobby’s 24 UTF-16 units without splitting a character', () => {
    expect(lobbyNameOf('Ada')).toBe('Ada');
    expect(lobbyNameOf('🎮'.repeat(24))).toBe('🎮'.repeat(12));
    expect(lobbyNameOf('a' + '🎮'.repeat(12))).toBe('a' + '🎮'.repeat(11));
    expect(lobbyNameOf('   ')).toBe('Player');
    expect(lobbyNameOf('\u3164\u200b')).toBe('Player');
    expect(lobbyNameOf(' Ａda\u202e ')).toBe('Ada');
  });

  it('says how long to wait after too many tries', () => {
    expect(tooManyTriesMessage(8)).toBe('Too many tries, wait 8 s.');
    const view = describeJoinFailure(new LobbyJoinError('too-many-tries', tooManyTriesMessage(8)), true);
    expect(view).toMatchObject({ code: 'failed-precondition', message: 'Too many tries, wait 8 s.' });
    const invalid = describeJoinFailure(new LobbyJoinError('invalid-room', LOBBY_END_MESSAGES['invalid-room']), false);
    expect(invalid.message).toBe('The host sent an invalid room.');
  });

  it('names a room after its host', () => {
    expect(defaultRoomName('Ada')).toBe("Ada's room");
  });
});
