import { describe, expect, it } from 'vitest';
import type { DatagramHandlers, DatagramSocket, DatagramSource } from '../../../../main/net/index';
import { NATIVE_DATAGRAM_MAGIC, SwitchableSocket } from '../../../../main/reach/internet/switchableSocket';
import { Native } from '../../../../main/net/native/wire/nativeWire';
import { keepPathAlive, silenceLimit, type PathRestart } from '../../../../main/reach/internet/pathKeeper';
import type { Scheduler } from '../../../../main/base/scheduler';
import { ManualScheduler } from '../../../support/manualScheduler';

/** One path's socket: records what is sent on it, delivers what the test says arrived. */
class PathSocket implements DatagramSocket {
  readonly address = '10.0.0.2';
  readonly recvBufferSize = 0;
  readonly sendBufferSize = 0;
  readonly sent: string[] = [];
  closed = false;
  private handlers: DatagramHandlers | undefined;
  constructor(
    readonly port: number,
    readonly remote: DatagramSource,
  ) {}
  send(datagram: Uint8Array): boolean {
    this.sent.push(Buffer.from(datagram).toString());
    return true;
  }
  listen(handlers: DatagramHandlers): void {
    this.handlers = handlers;
  }
  connect(): Promise<DatagramSource> {
    return Promise.resolve(this.remote);
  }
  async close(): Promise<void> {
    this.closed = true;
  }
  arrive(text: string): void {
    this.handlers?.message(Buffer.from(text), this.remote);
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function setup(reopen: () => Promise<PathSocket>, clock = new ManualScheduler(0)) {
  const first = new PathSocket(5000, { address: '198.51.100.7', port: 40000 });
  const socket = new SwitchableSocket(first, first.remote, () => clock.now());
  const got: Array<[string, DatagramSource]> = [];
  socket.listen({ message: (d, from) => got.push([Buffer.from(d).toString(), from]), sendError() {}, error() {} });
  const restarts: PathRestart[] = [];
  const heardAgain: number[] = [];
  const sessions: string[] = [];
  const keeper = keepPathAlive({
    socket,
    first: { socket: first, close: async () => void sessions.push('first closed') },
    scheduler: clock,
    reopen: async () => {
      const next = await reopen();
      return { socket: next, close: async () => void sessions.push(`${next.port} closed`) };
    },
    onRestart: (r) => restarts.push(r),
    onHeardAgain: (h) => heardAgain.push(h.gapMs),
  });
  return { clock, first, socket, got, restarts, heardAgain, sessions, keeper };
}

describe('SwitchableSocket and the path keeper (ICE restart)', () => {
  it('restarts the path after 2.5 s of silence and carries on with the same label, measuring the gap', async () => {
    const second = new PathSocket(5001, { address: '203.0.113.9', port: 41000 });
    let answer: (() => void) | undefined;
    const kit = setup(() => new Promise<PathSocket>((resolve) => (answer = () => resolve(second))));
    kit.first.arrive('hello');
    kit.clock.advance(2_000);
    await flush();
    expect(answer).toBeUndefined();
    kit.clock.advance(500);
    await flush();
    expect(answer).toBeDefined();
    // The rendezvous round trip and the ICE checks take 400 ms; meanwhile no second restart starts.
    kit.clock.advance(400);
    answer!();
    await flush();
    await flush();
    expect(kit.restarts).toEqual([{ ok: true, gapMs: 2_900, tookMs: 400, limitMs: 2_500 }]);
    // Sends go to the new path, and what it delivers looks as if it came from where the Client connected.
    kit.socket.send(Buffer.from('after'));
    expect(second.sent).toEqual(['after']);
    second.arrive('welcome back');
    kit.first.arrive('late, from the old path');
    expect(kit.got.map(([text, from]) => [text, from.address, from.port])).toEqual([
      ['hello', '198.51.100.7', 40000],
      ['welcome back', '198.51.100.7', 40000],
    ]);
    expect(kit.first.closed).toBe(true);
    expect(kit.sessions).toEqual(['first closed']);
    expect(kit.socket.switches).toBe(1);
    await kit.keeper.close();
    expect(kit.sessions).toEqual(['first closed', '5001 closed']);
  });

  it('does not restart a path that keeps talking', async () => {
    const kit = setup(async () => {
      throw new Error('should not be called');
    });
    for (let i = 0; i < 40; i += 1) {
      kit.first.arrive(`heartbeat ${i}`);
      kit.clock.advance(1_000);
      await flush();
    }
    expect(kit.keeper.restarts).toBe(0);
    await kit.keeper.close();
  });

  it('tries again a second after a failed restart (the rendezvous is away too), one at a time', async () => {
    let calls = 0;
    const third = new PathSocket(5003, { address: '203.0.113.9', port: 41003 });
    const kit = setup(async () => {
      calls += 1;
      if (calls < 3) throw new Error('rendezvous unreachable');
      return third;
    });
    for (let i = 0; i < 30 && kit.socket.switches === 0; i += 1) {
      kit.clock.advance(250);
      await flush();
    }
    expect(kit.restarts.map((r) => r.ok)).toEqual([false, false, true]);
    expect(calls).toBe(3);
    kit.socket.send(Buffer.from('x'));
    expect(third.sent).toEqual(['x']);
    await kit.keeper.close();
  });

  it('closes a path that arrives after the keeper closed, and sends nothing once closed', async () => {
    let release: (() => void) | undefined;
    const late = new PathSocket(5009, { address: '203.0.113.9', port: 41009 });
    const kit = setup(
      () =>
        new Promise<PathSocket>((resolve) => {
          release = () => resolve(late);
        }),
    );
    kit.clock.advance(2_750);
    await flush();
    expect(release).toBeDefined();
    await kit.keeper.close();
    await kit.socket.close();
    release!();
    await flush();
    expect(kit.sessions).toEqual(['first closed', '5009 closed']);
    expect(kit.socket.send(Buffer.from('x'))).toBe(true);
    expect(late.sent).toEqual([]);
  });

  it('counts a silence sooner on a busy path: 1 s mid-round (snapshots), 1.5 s in a lobby of heartbeats', async () => {
    for (const [every, expected] of [
      [50, 1_000],
      [1_000, 1_500],
    ] as const) {
      let calledAt: number | undefined;
      const kit = setup(() => {
        calledAt = kit.clock.now();
        return new Promise<PathSocket>(() => undefined);
      });
      for (let t = every; t <= 6_000; t += every) {
        kit.clock.advance(every);
        kit.first.arrive('tick');
        await flush();
      }
      const silentFrom = kit.clock.now();
      for (let i = 0; i < 20 && calledAt === undefined; i += 1) {
        kit.clock.advance(250);
        await flush();
      }
      expect(calledAt! - silentFrom).toBe(expected);
      await kit.keeper.close();
    }
    expect(silenceLimit(undefined, 1_000, 2_500)).toBe(2_500);
    expect(silenceLimit(4_000, 1_000, 2_500)).toBe(2_500);
  });

  it('skips a check that came late (this process was stalled: the datagrams may still be queued)', async () => {
    let time = 0;
    let check: (() => void) | undefined;
    const stalled: Scheduler = {
      now: () => time,
      setTimer: () => ({}),
      setRepeating: (callback) => ((check = callback), {}),
      clearTimer: () => undefined,
    };
    let calls = 0;
    const kit = setup(async () => {
      calls += 1;
      return new PathSocket(5010, { address: '203.0.113.9', port: 41010 });
    }, stalled as ManualScheduler);
    time = 5_000;
    check!();
    await flush();
    expect(calls).toBe(0);
    time = 5_250;
    check!();
    await flush();
    expect(calls).toBe(1);
    await kit.keeper.close();
  });

  it('stops when its socket is closed (the Client gave up on the path): no restart, the session closed', async () => {
    let calls = 0;
    const kit = setup(async () => {
      calls += 1;
      return new PathSocket(5011, { address: '203.0.113.9', port: 41011 });
    });
    await kit.socket.close();
    kit.clock.advance(10_000);
    await flush();
    expect(calls).toBe(0);
    expect(kit.sessions).toEqual(['first closed']);
    expect(kit.clock.pending).toBe(0);
  });

  it('sends the last native datagram again over the new path at once, and reports when the host is heard', async () => {
    expect(NATIVE_DATAGRAM_MAGIC).toBe(Native.MAGIC);
    const second = new PathSocket(5012, { address: '203.0.113.9', port: 41012 });
    const kit = setup(async () => second);
    kit.socket.send(Uint8Array.of(0xa7, 1, 2, 3));
    kit.clock.advance(2_500);
    await flush();
    await flush();
    expect(kit.socket.switches).toBe(1);
    expect(second.sent).toEqual([Buffer.from([0xa7, 1, 2, 3]).toString()]);
    kit.clock.advance(120);
    second.arrive('challenge');
    expect(kit.heardAgain).toEqual([2_620]);
    second.arrive('more');
    expect(kit.heardAgain).toEqual([2_620]);
    await kit.keeper.close();

    // A v1 datagram has no packet number to make a copy harmless: not sent again.
    const third = new PathSocket(5013, { address: '203.0.113.9', port: 41013 });
    const v1 = setup(async () => third);
    v1.socket.send(Uint8Array.of(0, 1, 2, 3));
    v1.clock.advance(2_500);
    await flush();
    await flush();
    expect(v1.socket.switches).toBe(1);
    expect(third.sent).toEqual([]);
    await v1.keeper.close();
  });
});
