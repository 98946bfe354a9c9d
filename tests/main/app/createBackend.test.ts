import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBackend } from '../../../main/app/createBackend';
import { loggerSpy } from '../ipc/loggerSpy';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lan-party-backend-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function backend() {
  return createBackend({
    app: { name: 'LAN Party', version: '1.0.0', platform: 'linux' },
    userDataDir: dir,
    osUserName: 'ada',
    validateOutputs: true,
    logger: loggerSpy(),
  });
}

const electron = { transport: 'electron' } as const;

describe('backend composition', () => {
  it('answers app.getInfo with the host facts and the caller transport', async () => {
    const b = backend();
    expect(await b.gateway.dispatch('app.getInfo', undefined, electron)).toEqual({
      ok: true,
      value: { name: 'LAN Party', version: '1.0.0', platform: 'linux', transport: 'electron' },
    });
    expect(await b.gateway.dispatch('app.getInfo', undefined, { transport: 'websocket' })).toMatchObject({
      value: { transport: 'websocket' },
    });
  });

  it('serves settings and emits settings.changed after an update', async () => {
    const b = backend();
    const sink = vi.fn();
    b.gateway.subscribe(sink);
    expect(await b.gateway.dispatch('settings.get', undefined, electron)).toMatchObject({
      value: { playerName: 'ada' },
    });
    const updated = await b.gateway.dispatch(
      'settings.update',
      { playerName: '  Nova ', playerColor: '#A77DFF' },
      electron,
    );
    expect(updated).toEqual({ ok: true, value: { playerName: 'Nova', playerColor: '#a77dff' } });
    expect(sink).toHaveBeenCalledExactlyOnceWith('settings.changed', { playerName: 'Nova', playerColor: '#a77dff' });
  });

  it('rejects invalid updates with invalid-argument and leaves settings alone', async () => {
    const b = backend();
    for (const bad of [{ playerName: '' }, { playerColor: '#000000' }, { nickname: 'x' }, 'Nova', null]) {
      expect(await b.gateway.dispatch('settings.update', bad, electron)).toMatchObject({
        ok: false,
        error: { code: 'invalid-argument' },
      });
    }
    expect(await b.settings.get()).toMatchObject({ playerName: 'ada' });
  });

  it('stops forwarding settings events after close', async () => {
    const b = backend();
    const sink = vi.fn();
    b.gateway.subscribe(sink);
    await b.close();
    await b.settings.update({ playerName: 'Later' });
    expect(sink).not.toHaveBeenCalled();
  });
});
