import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../../main/createBackend';
import { LOBBY_END_MESSAGES } from '../../../main/lobby/lobbyErrors';
import { ipcContract } from '../../../shared/ipc/contract';
import { lobbyEndSchema, lobbyViewSchema } from '../../../shared/ipc/schemas/lobby';
import { freeUdpPort, loopbackNetwork } from '../../support/loopbackNetwork';
import { testBackend } from '../../support/testBackend';

// Every lobby, LAN and netcheck request (and the renderer's error report) refuses malformed input with a
// typed error before any handler runs.
const cleanups: Array<() => unknown> = [];
let backend: Backend;
beforeAll(async () => {
  backend = await testBackend(cleanups, { network: loopbackNetwork(await freeUdpPort()) });
});
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const ctx = { transport: 'electron' } as const;
const long = 'x'.repeat(300);

const malformed: Record<string, unknown[]> = {
  'app.reportError': [
    undefined,
    {},
    { source: 'console', message: 'x' },
    { source: 'render' },
    { source: 'render', message: 5 },
    { source: 'render', message: 'm'.repeat(2001) },
    { source: 'render', message: 'x', stack: 's'.repeat(8001) },
    { source: 'render', message: 'x', extra: true },
  ],
  'netcheck.exportReport': [undefined, {}, { save: 'yes' }, { save: true, path: '/etc/passwd' }],
  'lobby.get': [{}, 'x', 1],
  'lobby.host': [
    null,
    'room',
    { roomName: '' },
    { roomName: '   ' },
    { roomName: 'a'.repeat(41) },
    { roomName: 'bad\u0007name' },
    { capacity: 1 },
    { capacity: 17 },
    { capacity: 2.5 },
    { port: 0 },
    { port: 70000 },
    { port: '9000' },
    { password: long },
    { colour: '#ffffff' },
    { reach: 'mars' },
    { advertiseAddress: 'not-an-ip' },
    { advertiseAddress: 'party-pc' },
    { advertiseAddress: '10.0.0.256' },
    { advertiseAddress: '010.0.0.1' },
    { advertiseAddress: 42 },
    { seatGraceSec: -1 },
    { seatGraceSec: 601 },
    { seatGraceSec: 2.5 },
    { seatGraceSec: '30' },
    { seatGraceSec: Number.NaN },
  ],
  'lobby.joinByCode': [
    undefined,
    {},
    { code: 42 },
    { code: long },
    { code: 'ABCDE-FGHJK', extra: true },
    { code: 'ABCDE-FGHJK', probe: 'no' },
  ],
  'lobby.addresses': [{}, 'x', 1],
  'lobby.joinByAddress': [
    {},
    { host: '', port: 9000 },
    { host: '10.0.0.1', port: 0 },
    { host: '10.0.0.1' },
    { host: 'a b', port: 9000 },
    { host: 'http://x', port: 9000 },
    { host: '10.0.0.1', port: 9000, password: long },
  ],
  'lobby.leave': [{}, 0],
  'lobby.setReady': [undefined, {}, { ready: 'yes' }, { ready: true, x: 1 }],
  'lobby.chat': [undefined, { text: '' }, { text: '   ' }, { text: 'a'.repeat(201) }, { text: 5 }],
  'lobby.kick': [undefined, { playerId: 0 }, { playerId: -1 }, { playerId: 1.5 }, { playerId: '2' }],
  'lobby.start': [{}, true],
  'lobby.endRound': [{}, []],
  'lan.start': [{}, 'go'],
  'lan.stop': [{}],
  'lan.refresh': [{ force: true }],
  'lan.addServer': [
    undefined,
    {},
    { host: '' },
    { host: 'a b' },
    { host: '10.0.0.1', port: 0 },
    { host: 'x', extra: 1 },
  ],
  'lan.removeServer': [undefined, {}, { host: '10.0.0.1' }, { host: '10.0.0.1', port: 70000 }],
  'netcheck.run': [{}, { ports: [1] }],
};

describe('app contract: malformed input', () => {
  it('covers every lobby, lan and netcheck request, and app.reportError', () => {
    const names = Object.keys(ipcContract.requests).filter((n) => /^(lobby|lan|netcheck)\.|^app\.reportError$/.test(n));
    expect(Object.keys(malformed).sort()).toEqual(names.sort());
  });

  for (const [name, inputs] of Object.entries(malformed)) {
    it(`${name} rejects malformed input with invalid-argument`, async () => {
      for (const input of inputs) {
        const result = await backend.gateway.dispatch(name, input, ctx);
        expect(result, JSON.stringify(input)).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
      }
    });
  }

  it('names the field and the rule in the message', async () => {
    const result = await backend.gateway.dispatch('lobby.host', { capacity: 40 }, ctx);
    expect(result).toEqual({
      ok: false,
      error: { code: 'invalid-argument', message: 'capacity: A room takes at most 16 players' },
    });
    for (const [seatGraceSec, message] of [
      [601, 'A seat is held 0–600 seconds'],
      [-5, 'A seat is held 0–600 seconds'],
      [1.5, 'The seat grace must be a whole number of seconds'],
      ['thirty', 'The seat grace must be a number of seconds'],
    ] as const) {
      const refused = await backend.gateway.dispatch('lobby.host', { seatGraceSec }, ctx);
      expect(refused).toEqual({ ok: false, error: { code: 'invalid-argument', message: `seatGraceSec: ${message}` } });
    }
  });
});

describe('app contract: outputs', () => {
  it('lobby.get answers the idle view, and actions without a room fail with failed-precondition', async () => {
    const view = await backend.gateway.dispatch('lobby.get', undefined, ctx);
    expect(view.ok && lobbyViewSchema.parse(view.value)).toMatchObject({ status: 'idle', role: null, state: null });
    for (const [name, input] of [
      ['lobby.setReady', { ready: true }],
      ['lobby.chat', { text: 'hi' }],
      ['lobby.kick', { playerId: 1 }],
      ['lobby.start', undefined],
      ['lobby.endRound', undefined],
    ] as const) {
      const result = await backend.gateway.dispatch(name, input, ctx);
      expect(result, name).toEqual({
        ok: false,
        error: { code: 'failed-precondition', message: 'You are not in a room.' },
      });
    }
  });

  it('an empty password means no password', () => {
    const parsed = ipcContract.requests['lobby.host'].input.parse({ password: '' });
    expect(parsed).toEqual({ password: undefined });
  });

  it('the end codes match the lobby’s', () => {
    expect([...lobbyEndSchema.shape.code.options].sort()).toEqual(Object.keys(LOBBY_END_MESSAGES).sort());
  });
});
