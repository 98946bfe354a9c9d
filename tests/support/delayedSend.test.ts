import { describe, expect, it } from 'vitest';
import { delayedSend } from './delayedSend';
import { ManualScheduler } from './manualScheduler';

describe('delayedSend (a home uplink in the lab peer)', () => {
  function recorder() {
    const sent: { at: number; bytes: number[] }[] = [];
    const scheduler = new ManualScheduler(0);
    const send = (datagram: Uint8Array) => {
      sent.push({ at: scheduler.now(), bytes: [...datagram] });
      return false;
    };
    return { sent, scheduler, send };
  }

  it('holds every datagram for the delay, in order, and keeps a copy the caller may overwrite', () => {
    const { sent, scheduler, send } = recorder();
    const out = delayedSend(send, 10, scheduler);
    const buffer = Uint8Array.of(1, 2);
    expect(out.send(buffer)).toBe(true);
    buffer[0] = 9; // the caller reuses its buffer at once
    scheduler.advance(4);
    expect(out.send(Uint8Array.of(3))).toBe(true);
    scheduler.advance(5);
    expect(sent).toEqual([]);
    scheduler.advance(1);
    expect(sent).toEqual([{ at: 10, bytes: [1, 2] }]);
    scheduler.advance(4);
    expect(sent).toEqual([
      { at: 10, bytes: [1, 2] },
      { at: 14, bytes: [3] },
    ]);
  });

  it('sends at once with no delay, passing the socket’s answer through', () => {
    const { sent, scheduler, send } = recorder();
    const out = delayedSend(send, 0, scheduler);
    expect(out.send(Uint8Array.of(7))).toBe(false);
    expect(sent).toEqual([{ at: 0, bytes: [7] }]);
  });

  it('drops what still waits when closed', () => {
    const { sent, scheduler, send } = recorder();
    const out = delayedSend(send, 10, scheduler);
    out.send(Uint8Array.of(1));
    out.close();
    out.send(Uint8Array.of(2));
    scheduler.advance(50);
    expect(sent).toEqual([]);
    expect(scheduler.pending).toBe(0);
  });
});
