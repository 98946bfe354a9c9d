import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { IpcError, IpcErrorCode } from '../../../shared/ipc/errors';
import { createGateway } from '../../../main/ipc/gateway';
import type { HandlersOf } from '../../../main/ipc/handlerTypes';
import { loggerSpy } from './loggerSpy';

const testContract = {
  requests: {
    'echo.name': { input: z.strictObject({ name: z.string().trim().min(1) }), output: z.object({ name: z.string() }) },
    'math.double': { input: z.number().int(), output: z.number() },
    'oops.throw': { input: z.undefined(), output: z.string() },
  },
  events: {
    'thing.happened': z.object({ id: z.number() }),
  },
} as const;

function setup(overrides: Partial<HandlersOf<typeof testContract>> = {}, validateOutputs = true) {
  const logger = loggerSpy();
  const handlers: HandlersOf<typeof testContract> = {
    'echo.name': ({ name }) => ({ name }),
    'math.double': (n) => n * 2,
    'oops.throw': () => {
      throw new Error('disk on fire at /secret/path');
    },
    ...overrides,
  };
  const gateway = createGateway(testContract, handlers, { validateOutputs, logger });
  return { gateway, logger };
}

const ctx = { transport: 'electron' } as const;

describe('gateway dispatch', () => {
  it('validates input, passes the parsed value and returns the output', async () => {
    const { gateway } = setup();
    expect(await gateway.dispatch('echo.name', { name: '  Ada ' }, ctx)).toEqual({ ok: true, value: { name: 'Ada' } });
    expect(await gateway.dispatch('math.double', 21, ctx)).toEqual({ ok: true, value: 42 });
  });

  it('gives handlers a plain context, not the caller object', async () => {
    const seen = vi.fn((_n: number, context: unknown) => {
      expect(context).toEqual({ transport: 'websocket' });
      return 1;
    });
    const { gateway } = setup({ 'math.double': seen });
    const callerContext = { transport: 'websocket', extra: 'should not leak' } as unknown as typeof ctx;
    await gateway.dispatch('math.double', 1, callerContext);
    expect(seen).toHaveBeenCalledOnce();
  });

  it('rejects invalid input with invalid-argument naming the field, without calling the handler', async () => {
    const handler = vi.fn(() => ({ name: 'x' }));
    const { gateway } = setup({ 'echo.name': handler });
    const result = await gateway.dispatch('echo.name', { name: '   ' }, ctx);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe(IpcErrorCode.INVALID_ARGUMENT);
      expect(result.error.message).toContain('name');
    }
    expect(await gateway.dispatch('echo.name', { name: 'a', admin: true }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'invalid-argument' },
    });
    expect(await gateway.dispatch('math.double', '21', ctx)).toMatchObject({
      ok: false,
      error: { code: 'invalid-argument' },
    });
    expect(handler).not.toHaveBeenCalled();
    expect(gateway.stats().rejectedInputs).toBe(3);
  });

  it.each([['no.such'], ['__proto__'], ['toString'], ['constructor'], ['']])(
    'answers not-found for %j',
    async (name) => {
      const { gateway } = setup();
      expect(await gateway.dispatch(name, undefined, ctx)).toMatchObject({ ok: false, error: { code: 'not-found' } });
    },
  );

  it('passes an IpcError thrown by a handler through as data', async () => {
    const { gateway, logger } = setup({
      'math.double': () => {
        throw new IpcError(IpcErrorCode.FAILED_PRECONDITION, 'not in a lobby');
      },
    });
    expect(await gateway.dispatch('math.double', 1, ctx)).toEqual({
      ok: false,
      error: { code: 'failed-precondition', message: 'not in a lobby' },
    });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('turns other exceptions (sync or async) into a generic internal error and logs the details', async () => {
    const { gateway, logger } = setup({ 'math.double': async () => Promise.reject(new Error('boom')) });
    const thrown = await gateway.dispatch('oops.throw', undefined, ctx);
    expect(thrown).toEqual({
      ok: false,
      error: { code: 'internal', message: 'Internal error while handling oops.throw' },
    });
    expect(JSON.stringify(thrown)).not.toContain('/secret/path');
    expect(await gateway.dispatch('math.double', 1, ctx)).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(logger.error).toHaveBeenCalledTimes(2);
    expect(gateway.stats().failedRequests).toBe(2);
  });

  it('catches outputs that break the contract when validating', async () => {
    const bad = { 'math.double': () => 'not a number' as unknown as number };
    const { gateway, logger } = setup(bad);
    expect(await gateway.dispatch('math.double', 1, ctx)).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(logger.error).toHaveBeenCalledOnce();
  });

  it('skips output validation when disabled (packaged app)', async () => {
    const bad = { 'math.double': () => 'not a number' as unknown as number };
    const { gateway } = setup(bad, false);
    expect(await gateway.dispatch('math.double', 1, ctx)).toEqual({ ok: true, value: 'not a number' });
  });

  it('lists the contract names', () => {
    const { gateway } = setup();
    expect(gateway.requestNames).toEqual(['echo.name', 'math.double', 'oops.throw']);
    expect(gateway.eventNames).toEqual(['thing.happened']);
  });
});

describe('gateway events', () => {
  it('delivers valid events to every subscribed sink until it unsubscribes', () => {
    const { gateway } = setup();
    const a = vi.fn();
    const b = vi.fn();
    const stopA = gateway.subscribe(a);
    gateway.subscribe(b);
    gateway.emit('thing.happened', { id: 1 });
    stopA();
    gateway.emit('thing.happened', { id: 2 });
    expect(a.mock.calls).toEqual([['thing.happened', { id: 1 }]]);
    expect(b.mock.calls).toEqual([
      ['thing.happened', { id: 1 }],
      ['thing.happened', { id: 2 }],
    ]);
  });

  it('drops and counts payloads that break the contract, and unknown events', () => {
    const { gateway, logger } = setup();
    const sink = vi.fn();
    gateway.subscribe(sink);
    gateway.emit('thing.happened', { id: 'x' } as unknown as { id: number });
    (gateway.emit as (name: string, payload: unknown) => void)('no.such', {});
    expect(sink).not.toHaveBeenCalled();
    expect(gateway.stats().droppedEvents).toBe(2);
    expect(logger.error).toHaveBeenCalledTimes(2);
  });

  it('keeps delivering to other sinks when one throws', () => {
    const { gateway, logger } = setup();
    const good = vi.fn();
    gateway.subscribe(() => {
      throw new Error('window gone');
    });
    gateway.subscribe(good);
    gateway.emit('thing.happened', { id: 3 });
    expect(good).toHaveBeenCalledOnce();
    expect(logger.warn).toHaveBeenCalledExactlyOnceWith(
      'event sink failed for thing.happened',
      new Error('window gone'),
    );
  });
});
