import { isChannel, type Channel } from '../../../shared/net/channel';

/** Rejects channel ids that are not a {@link Channel}. */
export function checkChannel(channel: number): Channel {
  if (!isChannel(channel)) throw new RangeError(`unknown channel ${channel}; use Channel.*`);
  return channel;
}
