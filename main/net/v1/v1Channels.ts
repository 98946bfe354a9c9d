import { Channel, CHANNEL_POLICY } from '../../../shared/net/channel';

/** The v1 header byte each channel travels with, by channel id (its own, or the v1 channel it travels as). */
export const V1_WIRE_OF: Uint8Array = Uint8Array.from(CHANNEL_POLICY, (p) => p.v1Wire);

/** The channel each v1 header byte arrives as, by byte; -1 for bytes that are no v1 channel. */
export const CHANNEL_OF_V1_WIRE: Int16Array = new Int16Array(256).fill(-1);
for (const p of CHANNEL_POLICY) if (p.inV1) CHANNEL_OF_V1_WIRE[p.v1Wire] = p.id;

/** The header bytes of the reliable v1 channels, in service order. */
export const V1_RELIABLE_WIRES: readonly number[] = CHANNEL_POLICY.filter((p) => p.inV1 && p.reliable).map(
  (p) => p.v1Wire,
);

/** Whether each v1 header byte is a reliable channel's, by byte (1 or 0). */
export const V1_WIRE_RELIABLE: Uint8Array = new Uint8Array(256);
for (const wire of V1_RELIABLE_WIRES) V1_WIRE_RELIABLE[wire] = 1;

/**
 * The v1 header byte of the control channel: the unreliable channel, which also carries the handshake, heartbeats
 * and disconnect notices.
 */
export const V1_CONTROL_WIRE: number = V1_WIRE_OF[Channel.UNRELIABLE]!;
