import { lineLogger } from '../base/logger';
import { systemScheduler, type Scheduler } from '../base/scheduler';
import { readInternetCode } from '../../shared/rendezvous';
import { createInternetReach } from '../reach/internet/index';
import type { MapPort } from '../reach/portmap/portMapping';
import type { DhtNode } from '../reach/internet/dht/dhtNode';
import type { ReachPresence, RoomOpening } from '../reach/roomReach';

/** Options of {@link openCliInternetRoom}. */
export interface CliInternetRoomOptions {
  /** The rendezvous for when the router maps no port; undefined: the router's mapping only. */
  readonly rendezvousUrl: string | undefined;
  /** Players the room seats: the internet room holds no more guests' paths than that and a few pending. */
  readonly capacity?: number;
  /** Asks the router for a mapping of the room's direct port; absent: port mapping is off. */
  readonly mapPort?: MapPort;
  /** The DHT node the room listens on when the router maps nothing and no rendezvous is given; absent: off. */
  readonly dht?: DhtNode;
  /** The local address of the direct room's socket (--bind). */
  readonly bindAddress?: string;
  /** One log line (no newline). */
  readonly log: (line: string) => void;
  readonly scheduler?: Scheduler;
  /** Extra ICE host-candidate addresses (a namespace lab's, which werift would skip). */
  readonly iceHostAddresses?: readonly string[];
}

/** The line a presence change is logged as: the NET- code registered, or why it is not (it retries by itself). */
export function presenceLine(presence: ReachPresence): string {
  switch (presence.status) {
    case 'registered': {
      const read = readInternetCode(presence.code);
      const how = !read.ok
        ? 'registered with the rendezvous'
        : read.invite.kind === 'direct'
          ? `direct: your router forwards ${read.invite.code.address}:${read.invite.code.port}`
          : read.invite.kind === 'dht'
            ? `direct: guests find the room on the DHT by its key ${read.invite.code.publicKey.slice(0, 8)}…`
            : 'registered with the rendezvous';
      return `Internet code: ${presence.code} (${how})`;
    }
    case 'reconnecting':
      return `Internet room: the rendezvous is away, registering again by itself${presence.message ? ` (${presence.message})` : ''}`;
    case 'expired':
    case 'closed':
      return `Internet room ${presence.status}${presence.message ? `: ${presence.message}` : ''}`;
  }
}

/**
 * The dedicated host's internet room: the internet reach's opening (a socket mux for the room's Server; the
 * router's mapping first, else the rendezvous and its TURN credentials), its presence logged as it changes (a
 * restarted rendezvous: registered again). Rejects in words when neither can be had.
 */
export async function openCliInternetRoom(options: CliInternetRoomOptions): Promise<RoomOpening> {
  const { log } = options;
  const logger = lineLogger(log);
  const reach = createInternetReach({
    settings: async () => ({ rendezvousUrl: options.rendezvousUrl ?? null, turn: { mode: 'shared-secret' } }),
    scheduler: options.scheduler ?? systemScheduler,
    logger,
    ...(options.iceHostAddresses ? { hostAddresses: options.iceHostAddresses } : {}),
    ...(options.mapPort ? { mapPort: options.mapPort } : {}),
    ...(options.dht ? { dht: options.dht } : {}),
    ...(options.bindAddress ? { bindAddress: options.bindAddress } : {}),
  });
  return reach.open(options.capacity !== undefined ? { capacity: options.capacity } : {});
}
