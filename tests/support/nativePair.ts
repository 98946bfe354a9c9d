import type { Channel } from '../../shared/net/channel';
import { encodeBody } from '../../main/net/v1/connection';
import { compactJsonSerializer } from '../../main/net/v1/serialization';
import { NativeConnection, type NativeConnectionOptions } from '../../main/net/native/nativeConnection';
import { Native } from '../../main/net/native/wire/nativeWire';
import { seededRandom } from './seededRandom';
import { sealDatagram, TEST_KEYS_A, TEST_KEYS_B } from './nativeDatagram';
import { ImpairedQueue, type Impairment, type Side } from './impairedQueue';
import type { DepartureKind } from '../../main/net/departure';

/** The token both sides of a {@link NativePair} share. */
export const TOKEN = 0x5eed_0000_1234_abcdn;
/** A delivered message as a pair records it. */
export type Received = [type: string, payload: Record<string, unknown>, channel: Channel];

/**
 * Two NativeConnections back to back on a virtual clock. Each tick delivers what is due, services both
 * sides, and flushes a side that asked for it: the shape of one event-loop turn in auto mode.
 */
export class NativePair {
  now = 0;
  readonly a: NativeConnection;
  readonly b: NativeConnection;
  readonly received: Record<Side, Received[]> = { a: [], b: [] };
  readonly closed: Record<Side, { reason: string; kind: DepartureKind } | undefined> = { a: undefined, b: undefined };
  readonly sent: Record<Side, Uint8Array[]> = { a: [], b: [] };
  private readonly flushWanted: Record<Side, boolean> = { a: false, b: false };
  /**
   * Seconds between `service` calls; 0 (default): every step. Set to the driver's tick (0.01) to play auto mode,
   * where acks, re-sends and copies leave on events (datagrams, wake-ups), not on the step.
   */
  serviceInterval = 0;
  private nextService = 0;
  /** Per side: the time it asked to be flushed at (requestWake), Infinity when none; and every time asked. */
  private readonly wakeAt: Record<Side, number> = { a: Infinity, b: Infinity };
  readonly wakes: Record<Side, number[]> = { a: [], b: [] };
  private readonly link: ImpairedQueue;

  constructor(
    public aToB: Impairment = {},
    public bToA: Impairment = {},
    seed = 1,
    options: { a?: Partial<NativeConnectionOptions>; b?: Partial<NativeConnectionOptions> } = {},
  ) {
    // As the endpoint driver in auto mode: every datagram received asks for a flush at the end of its turn.
    this.link = new ImpairedQueue(seededRandom(seed), (to, d) => {
      this[to].receiveDatagram(d);
      this.flushWanted[to] = true;
    });
    const make = (self: Side, to: Side) =>
      new NativeConnection({
        token: TOKEN,
        serializer: compactJsonSerializer,
        clock: () => this.now,
        mtu: Native.DEFAULT_MTU,
        transmit: (d) => {
          this.sent[self].push(d);
          this.transmit(to, d);
        },
        onMessage: (type, payload, channel) => this.received[self].push([type, payload, channel]),
        onClosed: (reason, kind) => (this.closed[self] = { reason, kind }),
        requestFlush: () => (this.flushWanted[self] = true),
        requestWake: (at) => {
          this.wakes[self].push(at);
          this.wakeAt[self] = Math.min(this.wakeAt[self], at);
        },
        // As between real sockets with the 8 MiB buffers this machine grants (a quarter is advertised).
        peerRecvWindow: 2 * 1024 * 1024,
        keys: self === 'a' ? TEST_KEYS_A : TEST_KEYS_B,
        ...options[self],
      });
    this.a = make('a', 'b');
    this.b = make('b', 'a');
  }

  /** Serializes and sends with the same limit check Server and Client apply. */
  send(side: Side, type: string, payload: Record<string, unknown>, channel: Channel): void {
    const c = this[side];
    c.sendBody(encodeBody(c.serializer, type, payload, c.maxBody(channel)), channel);
  }

  /** Ends the current tick: sends what a side asked to flush. */
  flush(): void {
    for (const side of ['a', 'b'] as const) {
      if (!this.flushWanted[side]) continue;
      this.flushWanted[side] = false;
      this[side].flushAcks();
    }
  }

  /** Runs the virtual clock forward in `step`-second ticks. */
  run(seconds: number, step = 0.005, until?: () => boolean): void {
    this.flush();
    const end = this.now + seconds;
    while (this.now < end) {
      this.now = Math.round((this.now + step) * 1e6) / 1e6;
      this.deliverDue();
      if (this.now >= this.nextService) {
        this.a.service(this.now);
        this.b.service(this.now);
        this.nextService = this.serviceInterval === 0 ? 0 : this.now + this.serviceInterval - 1e-9;
      }
      for (const side of ['a', 'b'] as const) {
        if (this.now < this.wakeAt[side]) continue;
        this.wakeAt[side] = Infinity;
        this.flushWanted[side] = true;
      }
      this.flush();
      if (until?.()) return;
    }
  }

  /**
   * Hands a datagram built by a test (see nativeDatagram) straight to one side, bypassing the link: numbered and
   * tagged by the other side's sealer first, as if that side had sent it. Too short to seal: handed over as is.
   */
  inject(to: Side, datagram: Uint8Array): void {
    const from = to === 'a' ? this.b : this.a;
    const copy = Uint8Array.from(datagram);
    this[to].receiveDatagram(copy.length >= 22 ? sealDatagram(copy, from.sealer) : copy);
  }

  /** Hands bytes to one side exactly as given (no sealing): forgeries, replays. */
  injectRaw(to: Side, datagram: Uint8Array): void {
    this[to].receiveDatagram(datagram);
  }

  private transmit(to: Side, datagram: Uint8Array): void {
    this.link.send(to, datagram, to === 'b' ? this.aToB : this.bToA, this.now);
  }

  private deliverDue(): void {
    this.link.deliverDue(this.now);
  }
}

/** Printable pseudo-random text of `n` characters (one byte each in JSON), seeded. */
export function text(n: number, seed: number): string {
  const random = seededRandom(seed);
  let out = '';
  for (let i = 0; i < n; i++) out += String.fromCharCode(0x23 + Math.floor(random() * 90)).replace('\\', '~');
  return out;
}
