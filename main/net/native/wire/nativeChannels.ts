import { CHANNEL_POLICY } from '../../../../shared/net/channel';

/** The native frame channel byte of each channel, by channel id. */
export const NATIVE_WIRE_OF: Uint8Array = Uint8Array.from(CHANNEL_POLICY, (p) => p.nativeWire);

/** The channel each native frame channel byte stands for, by byte; -1 for bytes that are no channel. */
export const CHANNEL_OF_NATIVE_WIRE: Int16Array = new Int16Array(256).fill(-1);
for (const p of CHANNEL_POLICY) CHANNEL_OF_NATIVE_WIRE[p.nativeWire] = p.id;

/**
 * Whether a channel's MESSAGE frames carry a sequence, by channel id (1 or 0): reliable units and sequenced messages
 * are numbered; a plain unreliable message needs none, so its frame leaves it out.
 */
export const NUMBERED: Uint8Array = Uint8Array.from(CHANNEL_POLICY, (p) => (p.reliable || p.sequenced ? 1 : 0));
