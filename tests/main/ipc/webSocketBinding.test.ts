import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { createGateway } from '../../../main/ipc/gateway';
import {
  createBindingSecret,
  secretsMatch,
  startWebSocketBinding,
  WS_BINDING_HOST,
  type WebSocketBinding,
} from '../../../main/ipc/webSocketBinding';
import { parseBindingHash } from '../../../shared/ipc/bindingHash';
import { loggerSpy } from './loggerSpy';

const SECRET = 'test-secret-0123456789abcdef';
const contract = {
  requests: {
    'math.double': { input: z.number(), output: z.number() },
    'who.calls': { input: z.undefined(), output: z.string() },
    'strict.thing': { input: z.strictObject({}), output: z.string() },
  },
  events: { 'thing.happened': z.object({ id: z.number() }) },
} as const;

const open: WebSocketBinding[] = [];
const clients: WebSocket[] = [];

const PAGE = 'http://127.0.0.1:5555';

async function start(allowedOrigins: string[] = [PAGE], now?: () => number) {
  const logger = loggerSpy();
  const gateway = createGateway(
    contract,
    { 'math.double': (n) => n * 2, 'who.calls': (_i, ctx) => ctx.transport, 'strict.thing': () => 'ok' },
    { validateOutputs: true, logger },
  );
  const binding = await startWebSocketBinding({
    gateway,
    secret: SECRET,
    allowedOrigins,
    logger,
    ...(now ? { scheduler: { now } } : {}),
  });
  open.push(binding);
  return { gateway, binding, logger };
}

/** Resolves 'open' or the HTTP status the server refused the upgrade with; a browser on PAGE by default. */
function connect(
  url: string,
  headers: Record<string, string> = { Origin: PAGE },
): Promise<{ ws: WebSocket; outcome: 'open' | number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    clients.push(ws);
    ws.once('open', () => resolve({ ws, outcome: 'open' }));
    ws.once('unexpected-response', (_req, res) => resolve({ ws, outcome: res.statusCode ?? 0 }));
    ws.once('error', () => resolve({ ws, outcome: -1 }));
  });
}

function nextMessage(ws: WebSocket): Promise<unknown> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()))));
}

afterEach(async () => {
  for (const ws of clients.splice(0)) ws.terminate();
  for (const binding of open.splice(0)) await binding.close();
});

describe('WebSocket binding', () => {
  it('listens on 127.0.0.1 with an OS-chosen port and puts the secret in its URL', async () => {
    const { binding } = await start();
    expect(WS_BINDING_HOST).toBe('127.0.0.1');
    expect(binding.location.port).toBeGreaterThan(0);
    expect(binding.url).toBe(`ws://127.0.0.1:${binding.location.port}/?secret=${SECRET}`);
  });

  it('refuses connections without the secret, with a wrong one, or on another path', async () => {
    const { binding, logger } = await start();
    const base = `ws://127.0.0.1:${binding.location.port}`;
    expect((await connect(`${base}/`)).outcome).toBe(401);
    expect((await connect(`${base}/?secret=wrong-secret-0123456789abc`)).outcome).toBe(401);
    expect((await connect(`${base}/?secret=${SECRET.slice(0, -1)}`)).outcome).toBe(401);
    expect((await connect(`${base}/other?secret=${SECRET}`)).outcome).toBe(404);
    expect(binding.stats().rejectedConnections).toBe(4);
    expect(binding.stats().openConnections).toBe(0);
    expect(logger.warn).toHaveBeenCalledTimes(4);
  });

  it('refuses browser origins outside the allow-list, and a handshake without an origin', async () => {
    const { binding } = await start(['http://127.0.0.1:5555']);
    expect((await connect(binding.url, { Origin: 'http://evil.example' })).outcome).toBe(403);
    expect((await connect(binding.url, {})).outcome).toBe(403);
    expect((await connect(binding.url, { Origin: 'null' })).outcome).toBe(403);
    expect((await connect(binding.url, { Origin: 'http://127.0.0.1:5555' })).outcome).toBe('open');
  });

  it('refuses a Host header that is not the binding (DNS rebinding), accepting localhost', async () => {
    const { binding } = await start();
    const port = binding.location.port;
    expect((await connect(binding.url, { Origin: PAGE, Host: `evil.example:${port}` })).outcome).toBe(403);
    expect((await connect(binding.url, { Origin: PAGE, Host: `127.0.0.1:${port + 1}` })).outcome).toBe(403);
    expect((await connect(binding.url, { Origin: PAGE, Host: `localhost:${port}` })).outcome).toBe('open');
    expect(binding.stats().rejectedConnections).toBe(2);
  });

  it('logs five refusals a minute; the first one of the next minute says how many it held back', async () => {
    let now = 0;
    const { binding, logger } = await start([PAGE], () => now);
    for (let i = 0; i < 8; i++)
      expect((await connect(binding.url, { Origin: 'http://evil.example' })).outcome).toBe(403);
    expect(logger.warn).toHaveBeenCalledTimes(5);
    expect(logger.warn).toHaveBeenLastCalledWith(
      'refused WebSocket connection: Forbidden (origin "http://evil.example" is not the app\'s page)',
    );
    now = 60_000;
    await connect(binding.url, { Origin: 'x'.repeat(5000) });
    expect(logger.warn).toHaveBeenCalledTimes(6);
    const last = String(logger.warn.mock.lastCall?.[0]);
    expect(last).toMatch(/\(3 more refused since the last report\)$/);
    expect(last.length).toBeLessThan(200);
  });

  it('echoes at most 64 characters of an unknown key back', async () => {
    const { binding } = await start();
    const { ws } = await connect(binding.url);
    const key = 'k'.repeat(40_000);
    ws.send(JSON.stringify({ t: 'req', id: 1, name: 'strict.thing', input: { [key]: 1 } }));
    const reply = (await nextMessage(ws)) as { result: { error: { message: string } } };
    expect(reply.result.error.message).toContain('k'.repeat(64));
    expect(reply.result.error.message).not.toContain('k'.repeat(65));
    expect(reply.result.error.message.length).toBeLessThan(300);
  });

  it('answers requests through the gateway, tagged as the websocket transport', async () => {
    const { binding } = await start();
    const { ws, outcome } = await connect(binding.url);
    expect(outcome).toBe('open');
    ws.send(JSON.stringify({ t: 'req', id: 1, name: 'math.double', input: 21 }));
    expect(await nextMessage(ws)).toEqual({ t: 'res', id: 1, result: { ok: true, value: 42 } });
    ws.send(JSON.stringify({ t: 'req', id: 2, name: 'who.calls' }));
    expect(await nextMessage(ws)).toEqual({ t: 'res', id: 2, result: { ok: true, value: 'websocket' } });
    ws.send(JSON.stringify({ t: 'req', id: 3, name: 'math.double', input: 'x' }));
    expect(await nextMessage(ws)).toMatchObject({ id: 3, result: { ok: false, error: { code: 'invalid-argument' } } });
  });

  it('answers a malformed frame that has an id, and drops the rest without closing', async () => {
    const { binding } = await start();
    const { ws } = await connect(binding.url);
    ws.send('not json');
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    ws.send(JSON.stringify({ t: 'req', name: 'math.double' }));
    ws.send(JSON.stringify({ t: 'req', id: 9, name: 42 }));
    expect(await nextMessage(ws)).toMatchObject({
      t: 'res',
      id: 9,
      result: { ok: false, error: { code: 'invalid-argument' } },
    });
    ws.send(JSON.stringify({ t: 'req', id: 10, name: 'math.double', input: 1 }));
    expect(await nextMessage(ws)).toEqual({ t: 'res', id: 10, result: { ok: true, value: 2 } });
    expect(binding.stats().droppedMessages).toBe(4);
  });

  it('broadcasts gateway events to every connected client', async () => {
    const { binding, gateway } = await start();
    const a = await connect(binding.url);
    const b = await connect(binding.url);
    const got = Promise.all([nextMessage(a.ws), nextMessage(b.ws)]);
    gateway.emit('thing.happened', { id: 5 });
    expect(await got).toEqual([
      { t: 'evt', name: 'thing.happened', payload: { id: 5 } },
      { t: 'evt', name: 'thing.happened', payload: { id: 5 } },
    ]);
  });

  it('close disconnects clients, stops listening, and can be called twice', async () => {
    const { binding } = await start();
    const { ws } = await connect(binding.url);
    const closed = new Promise((resolve) => ws.once('close', resolve));
    await binding.close();
    await closed;
    await binding.close();
    expect((await connect(binding.url)).outcome).toBe(-1);
  });

  it('refuses to start with a weak secret', async () => {
    const gateway = createGateway(
      contract,
      { 'math.double': (n) => n, 'who.calls': () => '', 'strict.thing': () => '' },
      {
        validateOutputs: true,
        logger: loggerSpy(),
      },
    );
    await expect(
      startWebSocketBinding({ gateway, secret: 'short', allowedOrigins: [PAGE], logger: loggerSpy() }),
    ).rejects.toThrow(/secret/);
  });
});

describe('binding secret', () => {
  it('is 32 random bytes as base64url, from the injected source', () => {
    const secret = createBindingSecret((size) => Buffer.alloc(size, 0xfb));
    expect(secret).toBe(Buffer.alloc(32, 0xfb).toString('base64url'));
    expect(secret).toHaveLength(43);
  });

  it('differs between runs with the real source and fits the URL hash format', () => {
    const a = createBindingSecret();
    expect(a).not.toBe(createBindingSecret());
    expect(parseBindingHash(`#ws=1&secret=${a}`)).toEqual({ port: 1, secret: a });
  });

  it('matches only the same secret', () => {
    expect(secretsMatch('abc', 'abc')).toBe(true);
    expect(secretsMatch('abc', 'abd')).toBe(false);
    expect(secretsMatch('abc', 'abcd')).toBe(false);
    expect(secretsMatch('abc', '')).toBe(false);
    expect(secretsMatch('', '')).toBe(false);
  });
});
