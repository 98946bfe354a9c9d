import type { Scheduler } from '../../main/base/scheduler';
import { LinkPipe } from '../../main/conditioner/relay/linkPipe';
import { resolveLinkProfile } from '../../main/conditioner/linkProfile';
import { SeededRandom } from '../../shared/random/prng';

/** A send function behind a fixed delay, and how to drop what is still waiting. */
export interface DelayedSend {
  /** True when the datagram was taken (copied, or sent at once), as a DatagramSocket's send says. */
  send(datagram: Uint8Array): boolean;
  close(): void;
}

/**
 * `send` behind the link conditioner's pipe with `latencyMs` of one-way delay and nothing else: a home uplink's
 * latency applied inside the sending process, for paths the relay conditioner cannot stand on (it relays to one
 * fixed target, and a NAT router's uplink has many). A delayed datagram is copied, as callers may reuse their buffers;
 * with no delay `send` is called at once.
 */
export function delayedSend(
  send: (datagram: Uint8Array) => boolean,
  latencyMs: number,
  scheduler: Scheduler,
): DelayedSend {
  const pipe = new LinkPipe<Uint8Array>({
    profile: resolveLinkProfile({ latencyMs }),
    rng: new SeededRandom(1),
    scheduler,
    deliver: (datagram) => {
      send(datagram);
      return true;
    },
    maxQueued: 100_000,
  });
  return {
    send: (datagram) => {
      if (latencyMs === 0) return send(datagram);
      pipe.submit(Uint8Array.from(datagram), datagram.length);
      return true;
    },
    close: () => pipe.close(),
  };
}
