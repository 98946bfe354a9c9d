import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BRIDGE_NAMES_CHANNEL, eventChannel, parseBridgeNames, requestChannel } from '../../../shared/ipc/channels';
import { createGateway } from '../../../main/ipc/gateway';
import { loggerSpy } from './loggerSpy';

// Electron cannot run here: ipcMain is a fake that records handlers so tests can invoke them.
const registered = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
const listening = new Map<string, (event: { returnValue?: unknown }) => void>();
vi.mock('electron', () => ({
  ipcMain: {
    handle: vi.fn((channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown) => {
      if (registered.has(channel)) throw new Error(`second handler for ${channel}`);
      registered.set(channel, listener);
    }),
    removeHandler: vi.fn((channel: string) => registered.delete(channel)),
    on: vi.fn((channel: string, listener: (event: { returnValue?: unknown }) => void) => {
      if (listening.has(channel)) throw new Error(`second listener for ${channel}`);
      listening.set(channel, listener);
    }),
    removeListener: vi.fn((channel: string) => listening.delete(channel)),
  },
}));

const { bindElectronIpc } = await import('../../../main/ipc/electronBinding');

const contract = {
  requests: {
    'math.double': { input: z.number(), output: z.number() },
    'app.ping': { input: z.undefined(), output: z.literal('pong') },
  },
  events: { 'thing.happened': z.object({ id: z.number() }) },
} as const;

function fakeContents(destroyed = false) {
  return { isDestroyed: () => destroyed, send: vi.fn() };
}

function setup(trusted = true, targets = [fakeContents()]) {
  const logger = loggerSpy();
  const double = vi.fn((n: number) => n * 2);
  const gateway = createGateway(
    contract,
    { 'math.double': double, 'app.ping': () => 'pong' as const },
    {
      validateOutputs: true,
      logger,
    },
  );
  const isTrustedSender = vi.fn(() => trusted);
  const dispose = bindElectronIpc({
    gateway,
    isTrustedSender,
    eventTargets: () => targets as unknown as WebContents[],
    logger,
  });
  const invoke = (name: string, ...args: unknown[]) => {
    const listener = registered.get(requestChannel(name));
    if (!listener) throw new Error(`no handler for ${name}`);
    const event = { sender: {}, senderFrame: { url: 'file:///app/index.html' } } as unknown as IpcMainInvokeEvent;
    return listener(event, ...args);
  };
  return { gateway, dispose, invoke, double, isTrustedSender, logger };
}

beforeEach(() => {
  registered.clear();
  listening.clear();
});

describe('Electron IPC binding', () => {
  it('registers one handler per request on the prefixed channel', () => {
    setup();
    expect([...registered.keys()].sort()).toEqual([requestChannel('app.ping'), requestChannel('math.double')].sort());
  });

  it('dispatches trusted requests through the gateway and returns result data', async () => {
    const { invoke, isTrustedSender } = setup();
    expect(await invoke('math.double', 4)).toEqual({ ok: true, value: 8 });
    expect(await invoke('app.ping')).toEqual({ ok: true, value: 'pong' });
    expect(await invoke('math.double', 'four')).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    expect(isTrustedSender).toHaveBeenCalledTimes(3);
  });

  it('refuses untrusted senders before validation or the handler run', async () => {
    const { invoke, double, logger } = setup(false);
    expect(await invoke('math.double', 4)).toEqual({
      ok: false,
      error: { code: 'permission-denied', message: 'Sender not allowed' },
    });
    expect(double).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledOnce();
  });

  it('refuses calls with more than one argument', async () => {
    const { invoke, double } = setup();
    expect(await invoke('math.double', 1, 2)).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    expect(double).not.toHaveBeenCalled();
  });

  it('sends gateway events to live targets only, on the event channel', () => {
    const live = fakeContents();
    const dead = fakeContents(true);
    const { gateway } = setup(true, [live, dead]);
    gateway.emit('thing.happened', { id: 7 });
    expect(live.send).toHaveBeenCalledWith(eventChannel('thing.happened'), { id: 7 });
    expect(dead.send).not.toHaveBeenCalled();
  });

  it('answers the preload’s synchronous question with the contract’s names, which the preload accepts', () => {
    setup(false); // names are no secret: even a sender the policy refuses gets them
    const event: { returnValue?: unknown } = {};
    listening.get(BRIDGE_NAMES_CHANNEL)!(event);
    expect(event.returnValue).toEqual({ requests: ['math.double', 'app.ping'], events: ['thing.happened'] });
    expect(parseBridgeNames(event.returnValue)).toEqual(event.returnValue);
  });

  it('dispose removes every handler and stops forwarding events', () => {
    const target = fakeContents();
    const { gateway, dispose } = setup(true, [target]);
    dispose();
    expect(registered.size).toBe(0);
    expect(listening.size).toBe(0);
    gateway.emit('thing.happened', { id: 1 });
    expect(target.send).not.toHaveBeenCalled();
  });
});
