import { describe, expect, it } from 'vitest';
import { MAX_JOIN_TRIES } from '../../../main/base/retryShortWaits';
import { silentLogger } from '../../../main/base/logger';
import { joinRoom, type JoinRoomDeps } from '../../../main/lobby/joinRoom';
import { LobbyJoinError, tooManyTriesNotice } from '../../../main/lobby/lobbyErrors';
import type { LobbyGuest, LobbyJoinOptions } from '../../../main/lobby/lobbyGuest';
import type { RoomReach } from '../../../main/reach/roomReach';
import { IpcError, IpcErrorCode } from '../../../shared/ipc/errors';
import type { Settings } from '../../../shared/ipc/schemas/settings';
import { ManualScheduler } from '../../support/manualScheduler';

/** Lets the promise chain run (each try's rejection is a few microtasks away). */
const settle = async () => {
  for (let i = 0; i < 20; i += 1) await Promise.resolve();
};

const target = { host: '127.0.0.1', port: 9000 };
const tooMany = (ms: number) =>
  new LobbyJoinError('too-many-tries', `Too many tries, wait ${Math.ceil(ms / 1000)} s.`, undefined, ms);

/** A reach that locates at once, a guest whose tries answer in turn from `answers`, and the deps around them. */
function harness(answers: (Error | 'in')[]) {
  const scheduler = new ManualScheduler();
  const tries: { at: number; options: LobbyJoinOptions }[] = [];
  let closed = 0;
  const stay = new AbortController();
  const guest = { you: 1 } as unknown as LobbyGuest;
  const reach: RoomReach = {
    locate: async () => ({ target, close: async () => void (closed += 1) }),
    open: async () => Promise.reject(new Error('not hosting')),
  };
  const deps: JoinRoomDeps = {
    password: 'hunter2',
    appVersion: '1.0.0',
    timeoutSec: 5,
    logger: silentLogger,
    scheduler,
    settings: async (): Promise<Settings> => ({
      playerName: 'Ada',
      playerColor: '#5b8cff',
      onboarded: true,
      notifications: true,
      theme: 'system',
    }),
    joinGuest: async (options) => {
      tries.push({ at: scheduler.now(), options });
      const answer = answers[tries.length - 1] ?? answers.at(-1)!;
      if (answer === 'in') return guest;
      throw answer;
    },
    signal: stay.signal,
    onTarget: () => undefined,
  };
  const join = () => joinRoom(reach, { code: 'ABCDE' }, deps);
  return { scheduler, tries, join, deps, guest, closed: () => closed, leave: () => stay.abort() };
}

describe('joinRoom', () => {
  it('waits out a host’s short “too many tries” by itself and tries again with the same password', async () => {
    const h = harness([tooMany(1200), 'in']);
    const joined = h.join();
    await settle();
    expect(h.tries).toHaveLength(1);
    h.scheduler.advance(1199);
    await settle();
    expect(h.tries).toHaveLength(1);
    h.scheduler.advance(1);
    await settle();
    expect(h.tries).toHaveLength(2);
    expect(h.tries[1]!.at - h.tries[0]!.at).toBe(1200);
    expect(h.tries[1]!.options.password).toBe('hunter2');
    await expect(joined).resolves.toMatchObject({ guest: h.guest, located: { target } });
    expect(h.closed()).toBe(0);
  });

  it(`gives up after ${MAX_JOIN_TRIES} tries with the host's words, and lets go of the located room`, async () => {
    const h = harness([tooMany(1000)]);
    const outcome = h.join().catch((error: unknown) => error);
    for (let i = 0; i < MAX_JOIN_TRIES + 2; i += 1) {
      await settle();
      h.scheduler.advance(1000);
    }
    await settle();
    expect(h.tries).toHaveLength(MAX_JOIN_TRIES);
    expect(await outcome).toMatchObject({ message: 'Too many tries, wait 1 s.' });
    expect(h.closed()).toBe(1);
  });

  it('a long wait, a wrong password, or a player who left ends it at once', async () => {
    const long = harness([tooMany(6000), 'in']);
    await expect(long.join()).rejects.toMatchObject({ message: 'Too many tries, wait 6 s.' });
    expect(long.tries).toHaveLength(1);

    const wrong = harness([new LobbyJoinError('wrong-password', 'Wrong password.'), 'in']);
    await expect(wrong.join()).rejects.toMatchObject({ message: /password/i });
    expect(wrong.tries).toHaveLength(1);

    const gone = harness([tooMany(1000), 'in']);
    const outcome = gone.join().catch((error: unknown) => error);
    await settle();
    gone.leave();
    gone.scheduler.advance(5000);
    await settle();
    expect(gone.tries).toHaveLength(1);
    expect(await outcome).toMatchObject({ message: /you left/ });
  });
});

describe('joinRoom and its reach', () => {
  it('asks the reach once, shows where it looks and then where it found the room, and connects there', async () => {
    const h = harness(['in']);
    const shown: unknown[] = [];
    const asked: unknown[] = [];
    const found = { host: '10.0.0.7', port: 9000 };
    const reach: RoomReach = {
      async locate(request, context) {
        asked.push(request);
        context.onProgress({ target, step: 'finding-host' });
        return { target: found, connectTo: { host: '127.0.0.1', port: 40001 }, close: async () => undefined };
      },
      open: async () => Promise.reject(new Error('not hosting')),
    };
    const joined = await joinRoom(
      reach,
      { code: 'ABCDE' },
      { ...h.deps, onTarget: (t, step) => shown.push([t, step]) },
    );
    expect(asked).toEqual([{ code: 'ABCDE' }]);
    expect(shown).toEqual([
      [target, 'finding-host'],
      [found, undefined],
    ]);
    expect(h.tries.map((t) => [t.options.host, t.options.port, t.options.playerName])).toEqual([
      ['127.0.0.1', 40001, 'Ada'],
    ]);
    expect(joined).toMatchObject({ guest: h.guest, located: { target: found } });
  });

  it('refuses from the advert before connecting, and lets go of what the reach held', async () => {
    const h = harness(['in']);
    let closed = 0;
    const reach: RoomReach = {
      locate: async () => ({
        target,
        advert: { name: 'Ada’s room', port: 9000, playerCount: 8, protocolVersion: 1, capacity: 8 },
        close: async () => void (closed += 1),
      }),
      open: async () => Promise.reject(new Error('not hosting')),
    };
    await expect(joinRoom(reach, { code: 'ABCDE' }, h.deps)).rejects.toMatchObject({ code: 'failed-precondition' });
    expect(h.tries).toHaveLength(0);
    expect(closed).toBe(1);
  });
});

describe('joinRoom after a wait', () => {
  it('passes on the reach’s own refusal of the next try as it is', async () => {
    const busy = new IpcError(
      IpcErrorCode.UNAVAILABLE,
      'Too many requests to the rendezvous service from this address.',
    );
    const h = harness([tooMany(1000), busy]);
    const outcome = h.join().catch((error: unknown) => error);
    await settle();
    h.scheduler.advance(1000);
    await settle();
    expect(h.tries).toHaveLength(2);
    expect(await outcome).toBe(busy);
    expect(h.closed()).toBe(1);
  });
});

describe('tooManyTriesNotice', () => {
  it('says whole seconds, rounded up, and carries the wait itself in milliseconds', () => {
    expect(tooManyTriesNotice(1100)).toMatchObject({
      reason: 'too-many-tries',
      message: 'Too many tries, wait 2 s.',
      retryAfterSec: 2,
      retryAfterMs: 1100,
    });
    expect(tooManyTriesNotice(0.2)).toMatchObject({ retryAfterSec: 1, retryAfterMs: 1 });
    expect(tooManyTriesNotice(1e12)).toMatchObject({ retryAfterSec: 3600, retryAfterMs: 3_600_000 });
  });
});
