import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { closeOnSignal, RELAYED_SIGNAL_MS, type SignalProcess } from '../../../main/cli/closeOnSignal';

/** A process stand-in: signals are emitted by the test, exits and stderr recorded, the clock set by hand. */
function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  let stderr = '';
  let time = 1000;
  const proc: SignalProcess = {
    on: (signal, listener) => emitter.on(signal, listener),
    exit: (code) => void exits.push(code),
    stderr: { write: (text) => (stderr += text) },
  };
  return {
    proc,
    now: () => time,
    advance: (ms: number) => (time += ms),
    signal: (name: NodeJS.Signals) => emitter.emit(name, name),
    exits,
    stderr: () => stderr,
  };
}

/** A close the test finishes (or fails) when it likes. */
function pendingClose() {
  const calls: NodeJS.Signals[] = [];
  let finish: (error?: Error) => void = () => {};
  const close = (signal: NodeJS.Signals) => {
    calls.push(signal);
    return new Promise<void>((resolve, reject) => {
      finish = (error) => (error ? reject(error) : resolve());
    });
  };
  return { close, calls, finish: (error?: Error) => finish(error) };
}

describe('closeOnSignal', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('closes once on %s and resolves 0', async (name) => {
    const fake = fakeProcess();
    const room = pendingClose();
    const code = closeOnSignal('prog', room.close, { proc: fake.proc, now: fake.now });
    fake.signal(name);
    expect(room.calls).toEqual([name]);
    room.finish();
    expect(await code).toBe(0);
    expect(fake.exits).toEqual([]);
  });

  it('takes a signal relayed by a parent (the same Ctrl-C, again within moments) as one', async () => {
    const fake = fakeProcess();
    const room = pendingClose();
    const code = closeOnSignal('prog', room.close, { proc: fake.proc, now: fake.now });
    fake.signal('SIGINT');
    fake.advance(3);
    fake.signal('SIGINT');
    fake.advance(RELAYED_SIGNAL_MS - 10);
    fake.signal('SIGINT');
    room.finish();
    expect(await code).toBe(0);
    expect(room.calls).toEqual(['SIGINT']);
    expect(fake.exits).toEqual([]);
    expect(fake.stderr()).toBe('');
  });

  it('a second Ctrl-C later, while still closing, exits at once with 1', () => {
    const fake = fakeProcess();
    const room = pendingClose();
    void closeOnSignal('prog', room.close, { proc: fake.proc, now: fake.now });
    fake.signal('SIGINT');
    fake.advance(RELAYED_SIGNAL_MS);
    fake.signal('SIGINT');
    expect(fake.exits).toEqual([1]);
    expect(fake.stderr()).toBe('prog: SIGINT again, exiting without waiting\n');
    expect(room.calls).toHaveLength(1);
  });

  it('a close that fails says why and resolves 1', async () => {
    const fake = fakeProcess();
    const room = pendingClose();
    const code = closeOnSignal('prog', room.close, { proc: fake.proc, now: fake.now });
    fake.signal('SIGTERM');
    room.finish(new Error('socket gone'));
    expect(await code).toBe(1);
    expect(fake.stderr()).toBe('prog: error while closing: socket gone\n');
  });

  describe('when a parent relays the signal (npm run)', () => {
    /** A timer the test fires by hand. */
    function manualTimer() {
      const timers: { task: () => void; ms: number; cancelled: boolean }[] = [];
      const schedule = (task: () => void, ms: number) => {
        const timer = { task, ms, cancelled: false };
        timers.push(timer);
        return () => void (timer.cancelled = true);
      };
      return { timers, schedule };
    }
    const settled = async (promise: Promise<number>) =>
      Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve('pending'), 20))]);

    it('waits after closing for the relayed copy, so it cannot land on an exiting process', async () => {
      const fake = fakeProcess();
      const room = pendingClose();
      const { timers, schedule } = manualTimer();
      const code = closeOnSignal('prog', room.close, {
        proc: fake.proc,
        now: fake.now,
        schedule,
        expectRelayedSignal: true,
      });
      fake.signal('SIGINT');
      fake.advance(40);
      room.finish();
      expect(await settled(code)).toBe('pending');
      expect(timers.map((t) => t.ms)).toEqual([RELAYED_SIGNAL_MS - 40]);
      fake.advance(5);
      fake.signal('SIGINT');
      expect(await code).toBe(0);
      expect(timers[0]?.cancelled).toBe(true);
      expect(fake.exits).toEqual([]);
    });

    it('does not wait when the copy came while closing, and waits no longer than the relay window', async () => {
      const fake = fakeProcess();
      const room = pendingClose();
      const { timers, schedule } = manualTimer();
      const options = { proc: fake.proc, now: fake.now, schedule, expectRelayedSignal: true };
      const early = closeOnSignal('prog', room.close, options);
      fake.signal('SIGINT');
      fake.signal('SIGINT');
      room.finish();
      expect(await early).toBe(0);
      expect(timers).toEqual([]);

      const other = fakeProcess();
      const slow = pendingClose();
      const never = closeOnSignal('prog', slow.close, { ...options, proc: other.proc, now: other.now });
      other.signal('SIGTERM');
      slow.finish();
      expect(await settled(never)).toBe('pending');
      timers[0]!.task();
      expect(await never).toBe(0);
    });
  });
});
