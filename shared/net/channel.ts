/** Delivery guarantees, with the gale.net v1 wire ids. */
export const Channel = {
  /** Sent once; may be lost or arrive out of order. Snapshots. */
  UNRELIABLE: 0,
  /** Arrives, and is delivered in send order. Chat, lobby state. */
  RELIABLE_ORDERED: 1,
  /** Arrives, delivered on first arrival. Independent events. */
  RELIABLE_UNORDERED: 2,
  /**
   * Sent once; anything older than the newest delivered is dropped. Snapshots. Native connections
   * only: on a gale.net v1 connection it travels as UNRELIABLE (v1 has no sequence for it).
   */
  UNRELIABLE_SEQUENCED: 3,
} as const;

/** One of the {@link Channel} ids. */
export type Channel = (typeof Channel)[keyof typeof Channel];

/** Whether a channel id retransmits until acknowledged. */
export function isReliableChannel(channel: Channel): boolean {
  return channel === Channel.RELIABLE_ORDERED || channel === Channel.RELIABLE_UNORDERED;
}
