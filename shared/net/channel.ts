/**
 * Every channel's delivery policy, keyed by name: the one table a channel type is added to. The transport reads its
 * per-channel decisions from here (through {@link CHANNEL_POLICY}, an array indexed by channel id), never from a
 * switch on the channel.
 * - `id`: what applications pass (`Channel.NAME`); ids run 0…n-1.
 * - `reliable`: retransmitted until acknowledged (a ReliableSender and a ReliableReceiver per connection).
 * - `ordered`: a reliable channel whose receiver delivers in send order; unordered ones deliver on first arrival.
 * - `sequenced`: an unreliable channel whose sends are numbered and whose receiver delivers only messages newer than
 *   the newest delivered. Neither reliable nor sequenced: sent once, delivered on arrival.
 * - `nativeWire`: the channel byte in native frames.
 * - `v1Wire`, `inV1`: the channel byte of the gale.net v1 header. When v1 lacks the channel (`inV1: false`) it travels
 *   as the v1 channel owning `v1Wire`, with that channel's guarantees, and arrives as that channel.
 */
export const ChannelPolicies = {
  /** Sent once; may be lost or arrive out of order. Snapshots. */
  UNRELIABLE: { id: 0, reliable: false, ordered: false, sequenced: false, nativeWire: 0, v1Wire: 0, inV1: true },
  /** Arrives, and is delivered in send order. Chat, lobby state. */
  RELIABLE_ORDERED: { id: 1, reliable: true, ordered: true, sequenced: false, nativeWire: 1, v1Wire: 1, inV1: true },
  /** Arrives, delivered on first arrival. Independent events. */
  RELIABLE_UNORDERED: { id: 2, reliable: true, ordered: false, sequenced: false, nativeWire: 2, v1Wire: 2, inV1: true },
  /**
   * Sent once; anything older than the newest delivered is dropped. Snapshots. Native connections
   * only: on a gale.net v1 connection it travels as UNRELIABLE (v1 has no sequence for it).
   */
  UNRELIABLE_SEQUENCED: {
    id: 3,
    reliable: false,
    ordered: false,
    sequenced: true,
    nativeWire: 3,
    v1Wire: 0,
    inV1: false,
  },
} as const;

/** A channel's name: a key of {@link ChannelPolicies}. */
export type ChannelName = keyof typeof ChannelPolicies;

/** One entry of {@link ChannelPolicies}. */
export type ChannelPolicy = (typeof ChannelPolicies)[ChannelName];

/** One of the {@link Channel} ids. */
export type Channel = ChannelPolicy['id'];

/** The ids of the reliable channels. */
export type ReliableChannel = Extract<ChannelPolicy, { reliable: true }>['id'];

/** Delivery guarantees by name, with their ids (the gale.net v1 wire ids for the channels v1 has). */
export const Channel = Object.fromEntries(Object.entries(ChannelPolicies).map(([name, p]) => [name, p.id])) as {
  readonly [K in keyof typeof ChannelPolicies]: (typeof ChannelPolicies)[K]['id'];
};

/** The fields of a policy, for checking tables other than ours. */
export type ChannelPolicyFields = {
  readonly [K in keyof ChannelPolicy]: ChannelPolicy[K] extends boolean ? boolean : number;
};

const isByte = (n: number): boolean => Number.isInteger(n) && n >= 0 && n <= 255;

/**
 * Checks a policy table and returns its entries by id. Throws a clear error on ids that are not 0…n-1, a guarantee
 * no sender/receiver pair provides, duplicate wire bytes, or a v1 fallback that would lose reliability.
 */
export function policiesById<P extends ChannelPolicyFields>(table: Readonly<Record<string, P>>): readonly P[] {
  const entries = Object.entries(table);
  const byId: P[] = [];
  const fail = (name: string, why: string): never => {
    throw new Error(`channel policy ${name}: ${why}`);
  };
  for (const [name, p] of entries) {
    if (!Number.isInteger(p.id) || p.id < 0 || p.id >= entries.length)
      fail(name, `id ${p.id} is not in 0…${entries.length - 1}`);
    if (byId[p.id]) fail(name, `id ${p.id} is taken`);
    if (p.ordered && !p.reliable) fail(name, 'only a reliable channel can be ordered');
    if (p.sequenced && p.reliable) fail(name, 'a reliable channel cannot be sequenced (no receiver does both)');
    if (!isByte(p.nativeWire)) fail(name, `nativeWire ${p.nativeWire} is not a byte`);
    if (!isByte(p.v1Wire)) fail(name, `v1Wire ${p.v1Wire} is not a byte`);
    byId[p.id] = p;
  }
  for (const [name, p] of entries) {
    const sameNative = entries.find(([other, q]) => other !== name && q.nativeWire === p.nativeWire);
    if (sameNative) fail(name, `nativeWire ${p.nativeWire} is also ${sameNative[0]}'s`);
    const owners = entries.filter(([, q]) => q.inV1 && q.v1Wire === p.v1Wire);
    if (owners.length !== 1) fail(name, `v1Wire ${p.v1Wire} must belong to exactly one channel v1 has`);
    if (p.reliable && !owners[0]![1].reliable) fail(name, `on v1 it would travel unreliable, as ${owners[0]![0]}`);
  }
  return byId;
}

/** The policies by channel id: what the transport reads per message. */
export const CHANNEL_POLICY: readonly ChannelPolicy[] = policiesById(ChannelPolicies);

/** How many channels there are (ids run 0…CHANNEL_COUNT-1). */
export const CHANNEL_COUNT = CHANNEL_POLICY.length;

/** The reliable channels, by id: the ones with a sender and receiver to service. */
export const RELIABLE_CHANNELS: readonly ReliableChannel[] = CHANNEL_POLICY.filter((p) => p.reliable).map(
  (p) => p.id as ReliableChannel,
);

/** Whether `value` is a channel id. */
export function isChannel(value: unknown): value is Channel {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < CHANNEL_COUNT;
}

/** Whether a channel id retransmits until acknowledged. */
export function isReliableChannel(channel: Channel): boolean {
  return CHANNEL_POLICY[channel]?.reliable === true;
}
