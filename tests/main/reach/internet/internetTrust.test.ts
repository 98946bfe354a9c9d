import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import type { Logger } from '../../../../main/base/logger';
import { silentLogger } from '../../../../main/base/logger';
import { systemScheduler } from '../../../../main/base/scheduler';
import { createSocketMux } from '../../../../main/net/ice';
import { answerGuestAgreement } from '../../../../main/net/secure';
import { connectInternetRoom } from '../../../../main/reach/internet/internetJoin';
import { internetJoinAgreement } from '../../../../main/reach/internet/internetJoinAgreement';
import { CODE_GUESS_BUDGET, openInternetRoom, type InternetRoom } from '../../../../main/reach/internet/internetRoom';
import { startRendezvousServer, type RendezvousServer } from '../../../../main/rendezvous/rendezvousServer';
import { IpcError } from '../../../../shared/ipc/errors';
import { RENDEZVOUS_ERROR_TEXT, decodeInternetCode } from '../../../../shared/rendezvous';
import { waitFor } from '../../../support/waitFor';
import { loopbackRendezvousUrl } from './loopbackInternetRoom';

// The internet join's trust on loopback: the real rendezvous, the real host room and guest join, ICE with
// loopback host candidates only, and a rendezvous in the middle that speaks the protocol.
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const LOOPBACK = { hostAddresses: ['127.0.0.1'] };
const random = (size: number) => new Uint8Array(randomBytes(size));

async function service(): Promise<RendezvousServer> {
  // Every guest here comes from 127.0.0.1: the service's per-address limits are raised so the host's own
  // room-wide budget is what the tests meet.
  const server = await startRendezvousServer({
    host: '127.0.0.1',
    port: 0,
    scheduler: systemScheduler,
    logger: silentLogger,
    limits: {
      connectRate: { burst: 1000, perSecond: 1000 },
      messageRate: { burst: 1000, perSecond: 1000 },
      maxUnprovenJoinsPerAddressPerRoom: 1000,
    },
  });
  cleanups.push(() => server.close());
  return server;
}

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { ...silentLogger, warnings, warn: (message: string) => void warnings.push(message) };
}

async function room(url: string, logger: Logger = silentLogger, mux = createSocketMux()): Promise<InternetRoom> {
  const opened = await openInternetRoom({
    settings: { rendezvousUrl: url, turn: { mode: 'none' } },
    mux,
    scheduler: systemScheduler,
    logger,
    ...LOOPBACK,
  });
  cleanups.push(() => opened.close());
  return opened;
}

const join = (code: string, url: string) =>
  connectInternetRoom(code, {
    settings: { rendezvousUrl: url, turn: { mode: 'none' } },
    scheduler: systemScheduler,
    connectTimeoutSeconds: 5,
    ...LOOPBACK,
  });

/**
 * A rendezvous in the middle: relays the guest to the real service, but answers the guest's offer itself with
 * a guessed secret (what swapping keys means against a PAKE). Records what the guest sends.
 */
async function middle(upstreamUrl: string, roomId: string, guess: string) {
  const fromGuest: { kind: string }[] = [];
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  wss.on('connection', (client) => {
    const upstream = new WebSocket(upstreamUrl);
    const queue: string[] = [];
    upstream.on('open', () => queue.splice(0).forEach((text) => upstream.send(text)));
    upstream.on('message', (data) => {
      const message = JSON.parse(String(data)) as { kind: string; pake?: string };
      if (message.kind === 'answer' && offer !== undefined) {
        const fake = answerGuestAgreement(internetJoinAgreement({ roomId, secret: guess }), offer, random);
        message.pake = Buffer.from(fake.answer).toString('base64url');
      }
      client.send(JSON.stringify(message));
    });
    let offer: Uint8Array | undefined;
    client.on('message', (data) => {
      const text = String(data);
      const message = JSON.parse(text) as { kind: string; pake?: string };
      fromGuest.push(message);
      if (message.kind === 'join' && message.pake) offer = Buffer.from(message.pake, 'base64url');
      if (upstream.readyState === upstream.OPEN) upstream.send(text);
      else queue.push(text);
    });
    client.on('close', () => upstream.close());
    upstream.on('close', () => client.close());
  });
  cleanups.push(() => new Promise((resolve) => wss.close(resolve)));
  return { url: loopbackRendezvousUrl((wss.address() as AddressInfo).port), fromGuest };
}

describe('internet joins on loopback: keys only the two ends hold', () => {
  it('a guest with the code joins; the secured path carries datagrams both ways', async () => {
    const s = await service();
    const mux = createSocketMux();
    const host = await room(s.url, silentLogger, mux);
    const path = await join(host.code, s.url);
    cleanups.push(() => path.close());
    expect(path.path.kind).toBe('direct');
    const atHost: string[] = [];
    const atGuest: string[] = [];
    let guestSource: { address: string; port: number } | undefined;
    mux.socket.listen({
      message: (data, from) => {
        atHost.push(Buffer.from(data).toString());
        guestSource = { ...from };
      },
      sendError: () => undefined,
      error: () => undefined,
    });
    path.socket.listen({
      message: (data) => atGuest.push(Buffer.from(data).toString()),
      sendError: () => undefined,
      error: () => undefined,
    });
    await waitFor(
      () => {
        path.socket.send(Buffer.from('hello host'));
        return atHost.length > 0;
      },
      5000,
      'the guest datagram',
    );
    mux.socket.send(Buffer.from('hello guest'), guestSource!.port, guestSource!.address);
    await waitFor(() => atGuest.includes('hello guest'), 5000, 'the host datagram');
    expect(atHost[0]).toBe('hello host');
  }, 30_000);

  it('a rendezvous in the middle that swaps the answer gets the "someone may be between you" refusal, and no second guess', async () => {
    const s = await service();
    const host = await room(s.url);
    const decoded = decodeInternetCode(host.code);
    if (!decoded.ok) throw new Error(decoded.reason);
    const mitm = await middle(s.url, decoded.code.roomId, 'ZZZZZZZZZ');
    const error = await join(host.code, mitm.url).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IpcError);
    expect((error as IpcError).message).toBe(RENDEZVOUS_ERROR_TEXT['key-mismatch']);
    expect((error as IpcError).message).toMatch(/someone may be between you and the host/);
    // The guest sent its offer and nothing after: no confirmation, no ICE parameters, no retry.
    expect(mitm.fromGuest.map((m) => m.kind)).toEqual(['join']);
  }, 30_000);

  it('a wrong code is refused the same way; the host counts it and turns guessers away past its budget', async () => {
    const s = await service();
    const logger = recordingLogger();
    const host = await room(s.url, logger);
    const decoded = decodeInternetCode(host.code);
    if (!decoded.ok) throw new Error(decoded.reason);
    const { encodeInternetCode } = await import('../../../../shared/rendezvous');
    const wrong = encodeInternetCode(
      decoded.code.roomId,
      decoded.code.secret === 'AAAAAAAAA' ? 'BBBBBBBBB' : 'AAAAAAAAA',
    );
    const refusals: string[] = [];
    const turnedAway = () => logger.warnings.some((w) => /too many attempts that did not prove the code/.test(w));
    const attackStarted = Date.now();
    // Until the host turns guessers away, then two more. Not a fixed count: on a busy machine guesses come slower,
    // and the budget's refills may cover a fixed few more than the burst (23 guesses in 6 s once never ran it out).
    const guess = async () => refusals.push(((await join(wrong, s.url).catch((e: unknown) => e)) as IpcError).message);
    while (refusals.length < CODE_GUESS_BUDGET.burst + 30 && !turnedAway()) await guess();
    for (let i = 0; i < 2; i++) await guess();
    const attackMs = Date.now() - attackStarted;
    console.log(
      `[wrong codes] ${refusals.length} guesses in ${attackMs} ms: ${JSON.stringify([...new Set(refusals)])}`,
    );
    // Every guess reads as a wrong code: past the budget our own app waits out "try again in N s" by itself
    // (budgetRetry.ts), so each guess past the burst was held back until a refill before its check.
    expect(refusals.every((m) => m === RENDEZVOUS_ERROR_TEXT['key-mismatch'])).toBe(true);
    expect(turnedAway()).toBe(true);
    // A lower bound only, which a busy machine cannot break: every guess took one of the burst or of a refill since.
    const refills = refusals.length - CODE_GUESS_BUDGET.burst - 1;
    expect(attackMs).toBeGreaterThanOrEqual(refills * CODE_GUESS_BUDGET.refillMs - 200);
    // The host never gathered or checked anything for a guess.
    expect(logger.warnings.some((w) => /could not connect/.test(w))).toBe(false);
    // The attack stops: a guest with the right code is in with one call, the app waiting out any refusal.
    const started = Date.now();
    const path = await join(host.code, s.url);
    cleanups.push(() => path.close());
    console.log(`[wrong codes] the right code got in ${Date.now() - started} ms after the attack`);
  }, 60_000);
});
