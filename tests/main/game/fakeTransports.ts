import { encodeBody } from '../../../main/net/v1/connection';
import { jsonSerializer } from '../../../main/net/v1/serialization';
import type { ConnectionStats, GuestTransport, HostTransport, TransportPeer } from '../../../main/net/index';
import type { Scheduler } from '../../../main/base/scheduler';
import type { Channel } from '../../../shared/net/channel';

/** One message a fake transport sent, as the receiver would decode it, with its encoded body size. */
export interface SentMessage {
  type: string;
  payload: Record<string, unknown>;
  channel: Channel;
  bytes: number;
}

type Handler<A extends unknown[]> = (...args: A) => void;

function encode(type: string, payload: object): { payload: Record<string, unknown>; bytes: number } {
  // The real serializer, with the real 1200-byte check (throws PayloadTooLargeError like Server.broadcast).
  const body = encodeBody(jsonSerializer, type, payload);
  return { payload: jsonSerializer.deserialize(body).payload, bytes: body.byteLength };
}

/** An in-memory Server stand-in: records what the host sends, lets tests deliver guest messages and disconnects. */
export class FakeHostTransport implements HostTransport {
  readonly sent: SentMessage[] = [];
  readonly rtts = new Map<number, number>();
  /** Each connected guest's round trip (seconds) and loss, as getPeers() reports them; none by default. */
  readonly links = new Map<number, { rtt: number | undefined; loss: number }>();
  private readonly handlers = new Map<string, Set<Handler<[TransportPeer, Record<string, unknown>]>>>();
  private readonly disconnects = new Set<Handler<[TransportPeer, string]>>();

  onMessage(type: string, callback: Handler<[TransportPeer, Record<string, unknown>]>): () => void {
    const set = this.handlers.get(type) ?? new Set();
    this.handlers.set(type, set);
    set.add(callback);
    return () => set.delete(callback);
  }

  onDisconnect(callback: Handler<[TransportPeer, string]>): () => void {
    this.disconnects.add(callback);
    return () => this.disconnects.delete(callback);
  }

  broadcast(type: string, payload: object, options: { channel?: Channel } = {}): boolean {
    const encoded = encode(type, payload);
    this.sent.push({ type, ...encoded, channel: options.channel ?? 0 });
    return true;
  }

  getRtt(peerId: number): number | undefined {
    return this.rtts.get(peerId);
  }

  getPeers(): readonly { id: number; stats(): ConnectionStats }[] {
    return [...this.links].map(([id, link]) => ({
      id,
      stats: (): ConnectionStats => ({
        ...link,
        jitter: 0,
        packetsSentPerSecond: 0,
        packetsReceivedPerSecond: 0,
        bytesSentPerSecond: 0,
        bytesReceivedPerSecond: 0,
        retransmits: 0,
        spuriousRetransmits: 0,
        redundancyBytes: 0,
        dropped: 0,
        pendingReliable: 0,
      }),
    }));
  }

  /** Delivers a message from guest `peerId`, as if it went through JSON on the wire. */
  deliver(peerId: number, type: string, payload: unknown): void {
    const wire = JSON.parse(JSON.stringify(payload)) as Record<string, unknown>;
    for (const h of this.handlers.get(type) ?? []) h({ id: peerId }, wire);
  }

  disconnect(peerId: number): void {
    for (const h of this.disconnects) h({ id: peerId }, 'left');
  }

  /** Messages of one type sent so far. */
  ofType(type: string): SentMessage[] {
    return this.sent.filter((m) => m.type === type);
  }

  /** Number of handlers still registered (0 after the host detached). */
  get listenerCount(): number {
    let n = this.disconnects.size;
    for (const set of this.handlers.values()) n += set.size;
    return n;
  }
}

/** An in-memory Client stand-in. */
export class FakeGuestTransport implements GuestTransport {
  readonly sent: SentMessage[] = [];
  connected = true;
  private readonly handlers = new Map<string, Set<Handler<[Record<string, unknown>]>>>();
  private readonly disconnects = new Set<Handler<[string]>>();

  onMessage(type: string, callback: Handler<[Record<string, unknown>]>): () => void {
    const set = this.handlers.get(type) ?? new Set();
    this.handlers.set(type, set);
    set.add(callback);
    return () => set.delete(callback);
  }

  onDisconnect(callback: Handler<[string]>): () => void {
    this.disconnects.add(callback);
    return () => this.disconnects.delete(callback);
  }

  stats(): ConnectionStats | undefined {
    return undefined;
  }

  send(type: string, payload: object, channel: Channel = 0): boolean {
    if (!this.connected) return false;
    this.sent.push({ type, ...encode(type, payload), channel });
    return true;
  }

  deliver(type: string, payload: unknown): void {
    const wire = JSON.parse(JSON.stringify(payload)) as Record<string, unknown>;
    for (const h of this.handlers.get(type) ?? []) h(wire);
  }

  drop(reason: string): void {
    for (const h of this.disconnects) h(reason);
  }

  get listenerCount(): number {
    let n = this.disconnects.size;
    for (const set of this.handlers.values()) n += set.size;
    return n;
  }
}

/** A scheduler the test moves by hand: `advance` moves its clock (ms) by `seconds` and fires the repeating timer once. */
export function manualTicker(start = 100) {
  let now = start * 1000;
  let fire: (() => void) | undefined;
  const scheduler: Scheduler = {
    now: () => now,
    setTimer() {
      throw new Error('manualTicker drives one repeating timer only');
    },
    setRepeating(fn) {
      fire = fn;
      return fn;
    },
    clearTimer(handle) {
      if (fire === handle) fire = undefined;
    },
  };
  return {
    scheduler,
    advance(seconds: number): void {
      now += seconds * 1000;
      fire?.();
    },
    get armed(): boolean {
      return fire !== undefined;
    },
  };
}
