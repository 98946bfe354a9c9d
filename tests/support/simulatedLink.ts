import type { Channel } from '../../shared/net/channel';
import { Connection } from '../../main/net/v1/connection';
import { unpackHeader } from '../../main/net/v1/header';
import { Wire } from '../../main/net/v1/protocol';
import { jsonSerializer } from '../../main/net/v1/serialization';
import { seededRandom } from './seededRandom';
import { ImpairedQueue, type Impairment } from './impairedQueue';

export type { Impairment } from './impairedQueue';

/** Two Connections joined by an in-memory link on a virtual clock: exact, fast, repeatable. */
export class SimulatedPair {
  now = 0;
  readonly a: Connection;
  readonly b: Connection;
  readonly received = {
    a: [] as Array<[string, Record<string, unknown>, Channel]>,
    b: [] as Array<[string, Record<string, unknown>, Channel]>,
  };
  readonly closed = { a: undefined as string | undefined, b: undefined as string | undefined };
  readonly sent = { a: [] as Uint8Array[], b: [] as Uint8Array[] };
  private readonly link: ImpairedQueue;

  constructor(
    public aToB: Impairment = {},
    public bToA: Impairment = {},
    seed = 1,
  ) {
    this.link = new ImpairedQueue(seededRandom(seed), (to, d) => this.inject(to, d));
    const make = (self: 'a' | 'b', to: 'a' | 'b') =>
      new Connection({
        token: 42n,
        serializer: jsonSerializer,
        clock: () => this.now,
        transmit: (d) => {
          this.sent[self].push(d);
          this.transmit(to, d);
        },
        onMessage: (type, payload, channel) => this.received[self].push([type, payload, channel]),
        onClosed: (reason) => (this.closed[self] = reason),
      });
    this.a = make('a', 'b');
    this.b = make('b', 'a');
  }

  /** Runs the virtual clock forward in `step`-second ticks, delivering and servicing. */
  run(seconds: number, step = 0.005, until?: () => boolean): void {
    const end = this.now + seconds;
    while (this.now < end) {
      this.now = Math.round((this.now + step) * 1e6) / 1e6;
      this.deliverDue();
      this.a.service(this.now);
      this.b.service(this.now);
      if (until?.()) return;
    }
  }

  /** Hands one datagram straight to a side, bypassing the link. */
  inject(to: 'a' | 'b', datagram: Uint8Array): void {
    const header = unpackHeader(datagram)!;
    const message = jsonSerializer.deserialize(datagram.subarray(Wire.HEADER_SIZE));
    (to === 'a' ? this.a : this.b).receive(header, message, datagram.byteLength);
  }

  private transmit(to: 'a' | 'b', datagram: Uint8Array): void {
    this.link.send(to, datagram, to === 'b' ? this.aToB : this.bToA, this.now);
  }

  private deliverDue(): void {
    this.link.deliverDue(this.now);
  }
}
