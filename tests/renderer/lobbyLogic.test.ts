import { describe, expect, it } from 'vitest';
import { startBlocker } from '../../shared/ipc/startBlocker';
import type { LobbyState } from '../../shared/lobby/lobbyState';
import { encode, encodeShortCode } from '../../shared/roomCode';
import { encodeDirectCode, encodeInternetCode } from '../../shared/rendezvous';
import { parseHostPort } from '../../renderer/src/logic/hostPort';
import { joinFailureView } from '../../renderer/src/logic/joinFailure';
import { joinBlocker } from '../../renderer/src/logic/lanJoinBlocker';
import { lanServer } from './lanServerFixture';
import { describePath, describePing } from '../../renderer/src/logic/ping';
import { extractPastedCode, formatCodeField, roomCodeHint } from '../../renderer/src/logic/roomCodeHint';
import { activeScreen } from '../../renderer/src/state/navigation';
import { IDLE_VIEW } from './fakeBridge';

const code = encode('192.168.1.20', 9000);

const short = encodeShortCode('192.168.1.20', '255.255.255.0', 9000);
const shortCode = short.ok ? short.code : '';

describe('room code field', () => {
  it('formats as typed: upper case, a short code as one block, a full one grouped, caret beside the same character', () => {
    expect(formatCodeField('abcdef', 6)).toEqual({ value: 'ABCDEF', caret: 6 });
    expect(formatCodeField('abcdefgh', 8)).toEqual({ value: 'ABCDE-FGH', caret: 9 });
    expect(formatCodeField('ABCDE-FGH', 2)).toEqual({ value: 'ABCDE-FGH', caret: 2 });
    expect(formatCodeField('ab cd', 5)).toEqual({ value: 'ABCD', caret: 4 });
  });

  it('shows O, I and L as the 0, 1 and 1 they are read as, and keeps exactly what was typed around a wrong character', () => {
    expect(formatCodeField('abocl', 5)).toEqual({ value: 'AB0C1', caret: 5 });
    expect(formatCodeField('ab#cd', 5)).toEqual({ value: 'ab#cd', caret: 5 });
  });

  it('hints progress, the exact wrong character and its position, a typo in a short code, and where a full code leads', () => {
    expect(roomCodeHint('')).toMatchObject({ tone: 'neutral', ready: false });
    expect(roomCodeHint('ABC')).toEqual({ tone: 'neutral', text: '3 characters: short codes have 5–7', ready: false });
    expect(roomCodeHint('ABCDE-FGH')).toEqual({ tone: 'neutral', text: '8 of 10 characters', ready: false });
    const wrong = roomCodeHint('AB#CD');
    expect(wrong.tone).toBe('error');
    expect(wrong.text).toBe("'#' at position 3 is not used in room codes.");
    // The hint never lists the alphabet.
    expect(wrong.text).not.toContain('ABCDEFGH');
    expect(roomCodeHint('ABCDE-FGHJK-M')).toEqual({
      tone: 'error',
      text: 'That is 11 characters; a room code has 5–7 (short) or 10 (full).',
      ready: false,
    });
    expect(roomCodeHint(code)).toEqual({ tone: 'ok', text: 'Room at 192.168.1.20:9000', ready: true });
    expect(roomCodeHint(code.toLowerCase().replace('-', ' '))).toMatchObject({ ready: true });
    expect(roomCodeHint(shortCode)).toMatchObject({ tone: 'ok', ready: true });
    // Swap the last two characters (the check character included); they differ in this code.
    const swapped = `${shortCode.slice(0, -2)}${shortCode.slice(-1)}${shortCode.slice(-2, -1)}`;
    expect(swapped).not.toBe(shortCode);
    expect(roomCodeHint(swapped)).toEqual({
      tone: 'error',
      text: 'This short code has a typo: a character is wrong or two are swapped. A full code has 10.',
      ready: false,
    });
  });

  it('finds the code inside pasted text', () => {
    expect(extractPastedCode(`Join my room: ${code}!`)).toBe(code);
    expect(extractPastedCode(`code ${code.replace('-', '')} thanks`)).toBe(code.replace('-', ''));
    expect(extractPastedCode(`short one: ${shortCode}.`)).toBe(shortCode);
    expect(extractPastedCode('  3F7KQ  ')).toBe('3F7KQ');
  });
});

describe('host address field', () => {
  it('reads host:port, a bare host with the default port, and names what is wrong', () => {
    expect(parseHostPort(' 192.168.1.20:9100 ', 9000)).toEqual({ ok: true, host: '192.168.1.20', port: 9100 });
    expect(parseHostPort('party-pc', 9000)).toEqual({ ok: true, host: 'party-pc', port: 9000 });
    expect(parseHostPort('', 9000)).toMatchObject({ ok: false });
    expect(parseHostPort('pc:99999', 9000)).toEqual({
      ok: false,
      message: '“99999” is not a port: use a number from 1 to 65535.',
    });
    expect(parseHostPort(':9000', 9000)).toMatchObject({ ok: false, message: 'Write the address as host:port.' });
    expect(parseHostPort('http://pc', 9000)).toMatchObject({ ok: false });
  });
});

describe('small presentation rules', () => {
  it('labels pings by how they feel', () => {
    expect(describePing(null)).toEqual({ label: '—', tone: 'unknown' });
    expect(describePing(0.4)).toEqual({ label: '<1 ms', tone: 'good' });
    expect(describePing(40)).toMatchObject({ tone: 'good' });
    expect(describePing(41)).toMatchObject({ tone: 'fair' });
    expect(describePing(250)).toEqual({ label: '250 ms', tone: 'poor' });
  });

  it('names a guest’s path in words (an older host sends none: the LAN)', () => {
    expect(describePath(undefined).label).toBe('LAN');
    expect(describePath('direct')).toMatchObject({ label: 'Direct', title: expect.stringMatching(/internet/) });
    expect(describePath('relayed')).toMatchObject({ label: 'Relayed', title: expect.stringMatching(/relay/) });
    expect(describePath('router')).toMatchObject({ label: 'Direct (router)', title: expect.stringMatching(/router/) });
    expect(describePath('dht')).toMatchObject({ label: 'Direct (punched)', title: expect.stringMatching(/no relay/) });
  });

  it('asks for a password only on permission-denied, and suggests the check when unreachable', () => {
    expect(joinFailureView('permission-denied')).toMatchObject({ askPassword: true });
    expect(joinFailureView('unavailable')).toMatchObject({ askPassword: false, suggestNetcheck: true });
    expect(joinFailureView('failed-precondition')).toMatchObject({ askPassword: false, suggestNetcheck: false });
  });

  it('blocks joining our own room, other versions, plain gale.net servers and full rooms', () => {
    const server = lanServer('R', { id: 'id:x', pingMs: 3 });
    expect(joinBlocker({ ...server, state: 'playing' })).toMatch(/round in progress/i);
    expect(joinBlocker(server)).toBeNull();
    expect(joinBlocker({ ...server, own: true })).toBe('This is your room');
    expect(joinBlocker({ ...server, compatibility: 'incompatible' })).toMatch(/different/);
    expect(joinBlocker({ ...server, compatibility: 'unknown' })).toBe('Not a LAN Party room');
    expect(joinBlocker({ ...server, playerCount: 8 })).toBe('Room is full');
  });

  it('shows the room while in one or until an ended stay is dismissed', () => {
    expect(activeScreen('join', IDLE_VIEW)).toBe('join');
    expect(activeScreen('join', { ...IDLE_VIEW, status: 'joining' })).toBe('join');
    expect(activeScreen('home', { ...IDLE_VIEW, status: 'in-room' })).toBe('room');
    expect(activeScreen('browse', { ...IDLE_VIEW, status: 'ended' })).toBe('room');
  });
});

describe('start blocker', () => {
  const player = (id: number, name: string, ready: boolean) => ({
    id,
    name,
    colour: '#ffffff',
    ready,
    host: id === 0,
    pingMs: null,
  });
  const state = (players: LobbyState['players'], phase: LobbyState['phase'] = 'lobby'): LobbyState => ({
    roomName: 'R',
    gameId: 'tag',
    capacity: 8,
    passwordProtected: false,
    phase,
    players,
    chat: [],
    revision: 0,
  });

  it('names who is not ready, and clears when every guest is', () => {
    expect(startBlocker(state([player(0, 'Ada', false)]))).toBe('Waiting for at least one more player to join.');
    expect(startBlocker(state([player(0, 'Ada', false), player(1, 'Bob', false)]))).toBe(
      'Waiting for Bob to get ready.',
    );
    expect(
      startBlocker(state([player(0, 'A', false), player(1, 'B', false), player(2, 'C', true), player(3, 'D', false)])),
    ).toBe('Waiting for B and D to get ready.');
    const many = [player(0, 'A', false), ...[1, 2, 3, 4, 5].map((id) => player(id, `P${id}`, false))];
    expect(startBlocker(state(many))).toBe('Waiting for P1, P2 and 3 others to get ready.');
    expect(startBlocker(state([player(0, 'Ada', false), player(1, 'Bob', true)]))).toBeNull();
    expect(startBlocker(state([player(0, 'Ada', false), player(1, 'Bob', true)], 'playing'))).toBe(
      'A round is already in progress.',
    );
  });
});

describe('internet room codes in the join field', () => {
  const code = encodeInternetCode('7K3QXM', 'K7Q2M9XD4');

  it('formats NET- codes in groups of four and keeps the caret by the same character', () => {
    const typed = code.toLowerCase().replace(/-/g, ' ');
    expect(formatCodeField(typed, typed.length)).toEqual({ value: code, caret: code.length });
    expect(formatCodeField('net-7k3q', 8)).toEqual({ value: 'NET-7K3Q', caret: 8 });
    expect(formatCodeField('NET-7K3QX', 6)).toEqual({ value: 'NET-7K3Q-X', caret: 6 });
  });

  it('counts, accepts and refuses internet codes in words', () => {
    expect(roomCodeHint('NET-7K3Q')).toMatchObject({
      tone: 'neutral',
      ready: false,
      text: expect.stringMatching(/4 of 16/),
    });
    expect(roomCodeHint(code)).toMatchObject({ tone: 'ok', ready: true, text: expect.stringMatching(/rendezvous/) });
    const last = code.slice(-1);
    const typo = code.slice(0, -1) + (last === '0' ? '1' : '0');
    expect(roomCodeHint(typo)).toMatchObject({ tone: 'error', ready: false, text: expect.stringMatching(/mistyped/) });
  });

  it('finds an internet code inside a pasted invite', () => {
    expect(extractPastedCode(`Join my room: ${code} (LAN Party)`)).toBe(code);
    const direct = encodeDirectCode('203.0.113.7', 41641, 'K7Q2M9XD4');
    expect(extractPastedCode(`Join my room: ${direct} (LAN Party)`)).toBe(direct);
  });

  it('counts a direct room’s longer code without calling its first 16 characters a typo', () => {
    const direct = encodeDirectCode('203.0.113.7', 41641, 'K7Q2M9XD4');
    const bare = direct.slice(4).replace(/-/g, '');
    for (let typed = 16; typed < bare.length; typed += 1) {
      const hint = roomCodeHint(`NET-${bare.slice(0, typed)}`);
      if (hint.tone !== 'ok') expect(hint).toMatchObject({ tone: 'neutral', text: expect.stringMatching(/of 21/) });
    }
    expect(roomCodeHint(direct)).toMatchObject({ tone: 'ok', ready: true, text: expect.stringMatching(/router/) });
  });
});
