import { describe, expect, it } from 'vitest';
import {
  eventChannel,
  IPC_CHANNEL_PREFIX,
  listenerName,
  parseBridgeNames,
  requestChannel,
} from '../../../shared/ipc/channels';
import { ipcContract } from '../../../shared/ipc/contract';
import { IpcError, IpcErrorCode, isIpcErrorCode } from '../../../shared/ipc/errors';
import { eventNames, requestNames } from '../../../shared/ipc/names';
import { ipcResultSchema } from '../../../shared/ipc/result';

describe('IPC contract', () => {
  it('names.ts lists the contract’s keys, and the preload accepts them as main hands them over', () => {
    expect(requestNames).toEqual(Object.keys(ipcContract.requests));
    expect(eventNames).toEqual(Object.keys(ipcContract.events));
    const names = { requests: [...requestNames], events: [...eventNames] };
    expect(parseBridgeNames(structuredClone(names))).toEqual(names);
  });

  it('uses dotted lower-camel names so listener names derive cleanly', () => {
    for (const name of [...requestNames, ...eventNames]) expect(name).toMatch(/^[a-z][a-zA-Z]*(\.[a-z][a-zA-Z]*)+$/);
  });

  it('derives listener names and channels from event and request names', () => {
    expect(listenerName('settings.changed')).toBe('onSettingsChanged');
    expect(listenerName('lobby.playerJoined')).toBe('onLobbyPlayerJoined');
    expect(requestChannel('settings.get')).toBe(`${IPC_CHANNEL_PREFIX}request:settings.get`);
    expect(eventChannel('settings.changed')).toBe(`${IPC_CHANNEL_PREFIX}event:settings.changed`);
    expect(requestChannel('a.b')).not.toBe(eventChannel('a.b'));
  });

  it('requests that take no input accept undefined and reject anything else', () => {
    expect(ipcContract.requests['settings.get'].input.safeParse(undefined).success).toBe(true);
    expect(ipcContract.requests['app.getInfo'].input.safeParse({}).success).toBe(false);
  });
});

describe('IpcError', () => {
  it('round-trips through its wire form', () => {
    const error = new IpcError(IpcErrorCode.NOT_FOUND, 'no such room');
    expect(error.toData()).toEqual({ code: 'not-found', message: 'no such room' });
    const back = IpcError.fromData(error.toData());
    expect(back).toBeInstanceOf(Error);
    expect(back.code).toBe('not-found');
    expect(back.message).toBe('no such room');
  });

  it('recognises only known codes', () => {
    expect(isIpcErrorCode('internal')).toBe(true);
    expect(isIpcErrorCode('teapot')).toBe(false);
    expect(isIpcErrorCode(42)).toBe(false);
  });
});

describe('result envelope schema', () => {
  it('accepts ok and error results', () => {
    expect(ipcResultSchema.safeParse({ ok: true, value: 1 }).success).toBe(true);
    expect(ipcResultSchema.safeParse({ ok: false, error: { code: 'internal', message: 'x' } }).success).toBe(true);
  });

  it('rejects unknown codes and malformed envelopes', () => {
    expect(ipcResultSchema.safeParse({ ok: false, error: { code: 'teapot', message: 'x' } }).success).toBe(false);
    expect(ipcResultSchema.safeParse({ ok: 'yes' }).success).toBe(false);
    expect(ipcResultSchema.safeParse(null).success).toBe(false);
  });
});
