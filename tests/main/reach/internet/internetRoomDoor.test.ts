import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../../main/base/logger';
import { silentLogger } from '../../../../main/base/logger';
import { systemScheduler, type Scheduler } from '../../../../main/base/scheduler';
import { createSocketMux, type SocketMux } from '../../../../main/net/ice';
import { sealSignal, startGuestAgreement } from '../../../../main/net/secure';
import { connectInternetRoom, type InternetPath } from '../../../../main/reach/internet/internetJoin';
import { internetJoinAgreement } from '../../../../main/reach/internet/internetJoinAgreement';
import {
  openInternetRoom,
  type InternetRoom,
  type InternetRoomOptions,
} from '../../../../main/reach/internet/internetRoom';
import {
  startRendezvousHost,
  type JoinConfirmation,
  type JoinRequest,
  type JoinSignal,
  type RendezvousHost,
  type RendezvousHostOptions,
} from '../../../../main/reach/internet/rendezvousHost';
import { openIceParameters } from '../../../../main/reach/internet/sealedIceParameters';
import { startRendezvousServer } from '../../../../main/rendezvous/rendezvousServer';
import { decodeInternetCode } from '../../../../shared/rendezvous';
import { captureProcessErrors } from '../../../support/labProcessGuard';
import { ManualScheduler } from '../../../support/manualScheduler';
import { sealedGarbageText } from '../../../support/sealedSignalFuzz';
import { seededRandom } from '../../../support/seededRandom';
import { waitFor } from '../../../support/waitFor';

// The host's door against a code-holder, on loopback: the real rendezvous for real guests, and a tap in front of
// the room's rendezvous client through which a code-holder's joins arrive as the service would forward them.
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const LOOPBACK = { hostAddresses: ['127.0.0.1'] };
const random = (size: number) => new Uint8Array(randomBytes(size));
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

async function service(): Promise<string> {
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
  return server.url;
}

/** The room's rendezvous client with a tap: joins whose id starts `tap-` come from the test and answer to it. */
function rendezvousTap() {
  const answers = new Map<string, string>();
  const rejects = new Map<string, string>();
  const joinListeners: ((request: JoinRequest) => void)[] = [];
  const confirmListeners: ((confirmation: JoinConfirmation) => void)[] = [];
  const signalListeners: ((signal: JoinSignal) => void)[] = [];
  const tapped = (joinId: string) => joinId.startsWith('tap-');
  const start = async (options: RendezvousHostOptions): Promise<RendezvousHost> => {
    const real = await startRendezvousHost(options);
    return {
      roomId: real.roomId,
      roomSecret: real.roomSecret,
      get expiresAt() {
        return real.expiresAt;
      },
      get status() {
        return real.status;
      },
      get relays() {
        return real.relays;
      },
      onStatus: (listener) => real.onStatus(listener),
      onJoinRequest: (listener) => (joinListeners.push(listener), real.onJoinRequest(listener)),
      onConfirm: (listener) => (confirmListeners.push(listener), real.onConfirm(listener)),
      onSignal: (listener) => (signalListeners.push(listener), real.onSignal(listener)),
      // A tapped join never reached the rendezvous: its accept earns no relay.
      accept: async (joinId, timeoutMs) => (tapped(joinId) ? null : real.accept(joinId, timeoutMs)),
      answer: (joinId, pake) => (tapped(joinId) ? void answers.set(joinId, pake) : real.answer(joinId, pake)),
      reject: (joinId, reason) => (tapped(joinId) ? void rejects.set(joinId, reason) : real.reject(joinId, reason)),
      signal: (joinId, sealed) => (tapped(joinId) ? undefined : real.signal(joinId, sealed)),
      close: () => real.close(),
    };
  };
  return {
    start,
    answers,
    rejects,
    join: (request: JoinRequest) => joinListeners.forEach((listener) => listener(request)),
    confirm: (confirmation: JoinConfirmation) => confirmListeners.forEach((listener) => listener(confirmation)),
    signal: (signal: JoinSignal) => signalListeners.forEach((listener) => listener(signal)),
  };
}

/**
 * Someone holding the room's code: every join it makes proves the code, so what it seals opens at the host. An
 * offer is made again only once the host answered it (a CPace party answers once): a turned-away join costs nothing.
 */
function codeHolder(tap: ReturnType<typeof rendezvousTap>, code: string) {
  const decoded = decodeInternetCode(code);
  if (!decoded.ok) throw new Error(decoded.reason);
  const context = internetJoinAgreement(decoded.code);
  let agreement = startGuestAgreement(context, random);
  let joins = 0;
  return {
    /**
     * One join; with `text` it confirms, and seals that as its ICE parameters once accepted. The host's refusal of
     * the join itself, if any (a later one is in `tap.rejects`).
     */
    async join(text?: string): Promise<{ joinId: string; rejected?: string }> {
      const joinId = `tap-${joins++}`;
      tap.join({ joinId, pake: b64(agreement.offer) });
      const rejected = tap.rejects.get(joinId);
      if (rejected !== undefined) return { joinId, rejected };
      const { keys, confirm } = agreement.finish(Buffer.from(tap.answers.get(joinId)!, 'base64url'));
      agreement = startGuestAgreement(context, random);
      if (text !== undefined) {
        tap.confirm({ joinId, pake: b64(confirm) });
        tap.signal({ joinId, sealed: sealSignal(keys.signalGuestToHost, text, random) });
        // The host reads the signal once its accept is taken: a few promise turns, all done before the next tick.
        await new Promise((resolve) => setImmediate(resolve));
      }
      return { joinId };
    },
    /** One join that confirms (the host accepts it) and then says nothing more. */
    confirmSilently(): string {
      const joinId = `tap-${joins++}`;
      tap.join({ joinId, pake: b64(agreement.offer) });
      const { confirm } = agreement.finish(Buffer.from(tap.answers.get(joinId)!, 'base64url'));
      agreement = startGuestAgreement(context, random);
      tap.confirm({ joinId, pake: b64(confirm) });
      return joinId;
    },
  };
}

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { ...silentLogger, warnings, warn: (message: string) => void warnings.push(message) };
}

async function room(
  url: string,
  tap: ReturnType<typeof rendezvousTap>,
  options: Partial<InternetRoomOptions> & { scheduler?: Scheduler } = {},
): Promise<{ room: InternetRoom; mux: SocketMux }> {
  const mux = options.mux ?? createSocketMux();
  const opened = await openInternetRoom({
    settings: { rendezvousUrl: url, turn: { mode: 'none' } },
    mux,
    scheduler: systemScheduler,
    logger: silentLogger,
    startRendezvous: tap.start,
    ...LOOPBACK,
    ...options,
  });
  cleanups.push(() => opened.close());
  return { room: opened, mux };
}

async function guest(code: string, url: string): Promise<InternetPath> {
  const path = await connectInternetRoom(code, {
    settings: { rendezvousUrl: url, turn: { mode: 'none' } },
    scheduler: systemScheduler,
    connectTimeoutSeconds: 5,
    ...LOOPBACK,
  });
  cleanups.push(() => path.close());
  return path;
}

/** The source the host's mux gives a guest's path, learnt from a datagram the guest sends over it. */
async function sourceOf(path: InternetPath, mux: SocketMux): Promise<{ address: string; port: number }> {
  let source: { address: string; port: number } | undefined;
  mux.socket.listen({
    message: (_data, from) => (source = { ...from }),
    sendError: () => undefined,
    error: () => undefined,
  });
  await waitFor(
    () => (path.socket.send(Buffer.from('hello')), source !== undefined),
    5000,
    'a datagram from the guest',
  );
  return source!;
}

describe('an internet room against a code-holder', () => {
  it('sealed text that is not JSON, or not ICE parameters, is refused in words and never thrown; a guest still joins', async () => {
    const errors = captureProcessErrors();
    cleanups.push(errors.stop);
    const url = await service();
    const tap = rendezvousTap();
    const logger = recordingLogger();
    const { room: host, mux } = await room(url, tap, { logger });
    const holder = codeHolder(tap, host.code);
    for (const text of ['not json {', '', '{"usernameFragment":', 'null', '{}', '[[[[[[', '"AbC1"']) {
      const { joinId, rejected } = await holder.join(text);
      expect(rejected).toBeUndefined();
      await waitFor(() => tap.rejects.has(joinId), 5000, `the refusal of ${JSON.stringify(text)}`);
      expect(tap.rejects.get(joinId)).toBe('That join request was malformed.');
    }
    expect(logger.warnings.filter((w) => w.includes('not JSON'))).toHaveLength(4);
    expect(logger.warnings.filter((w) => w.includes('bad ICE parameters'))).toHaveLength(3);
    expect(mux.size).toBe(0);
    const path = await guest(host.code, url);
    expect(path.path.kind).toBe('direct');
    expect(errors.errors).toEqual([]);
  }, 30_000);

  it('an accepted code-holder that never sends its ICE parameters costs no ICE session, and is let go after 20 s', async () => {
    const url = await service();
    const tap = rendezvousTap();
    const clock = new ManualScheduler();
    const logger = recordingLogger();
    const { room: host, mux } = await room(url, tap, { scheduler: clock, logger, capacity: 1, maxPending: 1 });
    // More silent joins than the room has places for paths: none of them holds one.
    const holder = codeHolder(tap, host.code);
    const silent = [0, 1, 2].map(() => holder.confirmSilently());
    await new Promise((resolve) => setImmediate(resolve));
    expect(silent.map((joinId) => tap.rejects.get(joinId))).toEqual([undefined, undefined, undefined]);
    const path = await guest(host.code, url);
    expect(path.path.kind).toBe('direct');
    expect(mux.size).toBe(1);
    clock.advance(19_900);
    expect(logger.warnings.filter((w) => w.includes('sent no ICE parameters'))).toHaveLength(0);
    clock.advance(200);
    await new Promise((resolve) => setImmediate(resolve));
    expect(logger.warnings.filter((w) => w.includes('sent no ICE parameters within 20000 ms'))).toHaveLength(3);
  }, 30_000);

  it('a path the Server takes no peer on within the hello window is released; an admitted one is kept', async () => {
    const url = await service();
    const tap = rendezvousTap();
    const clock = new ManualScheduler();
    const logger = recordingLogger();
    const { room: host, mux } = await room(url, tap, { scheduler: clock, logger, helloWindowMs: 5000 });
    const silent = await guest(host.code, url);
    await waitFor(() => mux.size === 1, 5000, 'the first path on the mux');
    clock.advance(4_900);
    expect(mux.size).toBe(1);
    clock.advance(200);
    expect(mux.size).toBe(0);
    expect(logger.warnings.some((w) => w.includes('said no hello within 5000 ms'))).toBe(true);
    expect(silent.socket).toBeDefined();

    const admitted = await guest(host.code, url);
    const source = await sourceOf(admitted, mux);
    host.admitted(source);
    clock.advance(60_000);
    expect(mux.size).toBe(1);
  }, 30_000);

  it("a confirmed join's guess token comes back only once the Server admits its path", async () => {
    const url = await service();
    const tap = rendezvousTap();
    const clock = new ManualScheduler();
    const { room: host, mux } = await room(url, tap, { scheduler: clock, joinBudget: { burst: 1, refillMs: 600_000 } });
    const first = await guest(host.code, url);
    const source = await sourceOf(first, mux);
    const holder = codeHolder(tap, host.code);
    // Confirmed but not admitted: the token stays spent, so a code-holder cannot open path after path.
    expect((await holder.join()).rejected).toMatch(/^Too many wrong codes for this room; try again in/);
    host.admitted(source);
    expect((await holder.join()).rejected).toBeUndefined();
  }, 30_000);

  it("paths are capped at the room's capacity plus its pending joins: past that, the room is full", async () => {
    const url = await service();
    const tap = rendezvousTap();
    const clock = new ManualScheduler();
    const { room: host, mux } = await room(url, tap, { scheduler: clock, capacity: 1, maxPending: 1 });
    await guest(host.code, url);
    await guest(host.code, url);
    expect(mux.size).toBe(2);
    expect((await codeHolder(tap, host.code).join()).rejected).toBe('The room is full.');
  }, 30_000);

  it('survives 10,000 sealed garbage signals from a code-holder and a real guest still joins', async () => {
    const errors = captureProcessErrors();
    cleanups.push(errors.stop);
    const url = await service();
    const tap = rendezvousTap();
    const logger = recordingLogger();
    const { room: host, mux } = await room(url, tap, { logger });
    const holder = codeHolder(tap, host.code);
    const draw = seededRandom(39);
    let parsed = 0;
    for (let i = 0; i < 10_000; i += 1) {
      // Only texts that are not valid parameters: a valid one would start ICE checks (to 127.0.0.1, but for 10 s).
      let text = sealedGarbageText(draw);
      const probe = (t: string) => openIceParameters(new Uint8Array(32), sealSignal(new Uint8Array(32), t, random));
      while (probe(text).ok) text = sealedGarbageText(draw);
      const { joinId, rejected } = await holder.join(text);
      if (rejected === undefined) {
        parsed += 1;
        expect(tap.rejects.get(joinId)).toBe('That join request was malformed.');
      } else {
        expect(rejected).toMatch(/^Too many wrong codes for this room; try again in/);
      }
    }
    // The room-wide budget let the first few through to the parse, and turned the rest away before any agreement.
    expect(parsed).toBeGreaterThanOrEqual(20);
    expect(logger.warnings.filter((w) => w.startsWith("an internet guest's join was refused"))).toHaveLength(parsed);
    expect(mux.size).toBe(0);
    expect(host.status.state).toBe('registered');
    const path = await guest(host.code, url);
    expect(path.path.kind).toBe('direct');
    expect(mux.size).toBe(1);
    expect(errors.errors).toEqual([]);
  }, 120_000);
});
