import type { GuestTransport, HostTransport, TransportPeer } from '../../../main/net/index';
import { CHANNEL_POLICY, type Channel } from '../../../shared/net/channel';
import type { ManualScheduler } from '../../support/manualScheduler';

/** One direction's impairment: latency ± jitter (ms, FIFO kept, as the link conditioner keeps it) and loss. */
export interface VirtualImpairment {
  latencyMs: number;
  jitterMs: number;
  /** Share of unreliable messages lost; reliable ones always arrive (their retransmissions are not modelled). */
  loss: number;
}

type Listener<A extends unknown[]> = (...args: A) => void;

/** Listeners by message type. */
class Handlers<A extends unknown[]> {
  private readonly byType = new Map<string, Set<Listener<A>>>();
  on(type: string, callback: Listener<A>): () => void {
    const set = this.byType.get(type) ?? new Set<Listener<A>>();
    this.byType.set(type, set);
    set.add(callback);
    return () => set.delete(callback);
  }
  emit(type: string, ...args: A): void {
    for (const h of this.byType.get(type) ?? []) h(...args);
  }
}

/**
 * A game host and its guests over an in-memory network on a {@link ManualScheduler}: every message goes through
 * JSON (as on the wire) and arrives after the impairment's latency, unreliable ones lost at its rate, drawn from
 * `random`. Time moves only with the scheduler, so a busy machine cannot turn a verdict.
 */
export class VirtualGameLink {
  private readonly hostHandlers = new Handlers<[TransportPeer, Record<string, unknown>]>();
  private readonly guestHandlers = new Map<number, Handlers<[Record<string, unknown>]>>();
  /** When the last message in each direction (key `to:from`) arrives: FIFO under jitter. */
  private readonly lastArrival = new Map<string, number>();

  constructor(
    private readonly scheduler: ManualScheduler,
    private readonly impairment: VirtualImpairment,
    private readonly random: () => number,
    /** The RTT the host's transport reports for every guest, seconds. */
    private readonly rtt = (2 * impairment.latencyMs) / 1000,
  ) {}

  /** The host's transport: broadcasts to every guest added. */
  readonly host: HostTransport = {
    onMessage: (type, callback) => this.hostHandlers.on(type, callback),
    onDisconnect: () => () => undefined,
    broadcast: (type, payload, options = {}) => {
      for (const [id, handlers] of this.guestHandlers) {
        this.carry(`${id}:host`, options.channel ?? 0, payload, (wire) => handlers.emit(type, wire));
      }
      return true;
    },
    getRtt: (peerId) => (this.guestHandlers.has(peerId) ? this.rtt : undefined),
    getPeers: () => [],
  };

  /** The transport of guest `id` (its lobby player id). */
  guest(id: number): GuestTransport {
    const handlers = new Handlers<[Record<string, unknown>]>();
    this.guestHandlers.set(id, handlers);
    return {
      onMessage: (type, callback) => handlers.on(type, callback),
      onDisconnect: () => () => undefined,
      stats: () => undefined,
      send: (type, payload, channel: Channel = 0) => {
        this.carry(`host:${id}`, channel, payload, (wire) => this.hostHandlers.emit(type, { id }, wire));
        return true;
      },
    };
  }

  private carry(
    direction: string,
    channel: Channel,
    payload: object,
    deliver: (wire: Record<string, unknown>) => void,
  ) {
    const { latencyMs, jitterMs, loss } = this.impairment;
    if (!CHANNEL_POLICY[channel]!.reliable && this.random() < loss) return;
    const wire = JSON.parse(JSON.stringify(payload)) as Record<string, unknown>;
    const now = this.scheduler.now();
    const at = Math.max(this.lastArrival.get(direction) ?? 0, now + latencyMs + (this.random() * 2 - 1) * jitterMs);
    this.lastArrival.set(direction, at);
    this.scheduler.setTimer(() => deliver(wire), at - now);
  }
}
