import type { Logger } from '../base/logger';
import { systemScheduler, type Scheduler } from '../base/scheduler';
import { createInternetReach } from '../reach/internet/index';
import type { ReachPresence, RoomOpening } from '../reach/roomReach';

/** Options of {@link openCliInternetRoom}. */
export interface CliInternetRoomOptions {
  readonly rendezvousUrl: string;
  /** Players the room seats: the internet room holds no more guests' paths than that and a few pending. */
  readonly capacity?: number;
  /** One log line (no newline). */
  readonly log: (line: string) => void;
  readonly scheduler?: Scheduler;
  /** Extra ICE host-candidate addresses (a namespace lab's, which werift would skip). */
  readonly iceHostAddresses?: readonly string[];
}

/** The line a presence change is logged as: the NET- code registered, or why it is not (it retries by itself). */
export function presenceLine(presence: ReachPresence): string {
  switch (presence.status) {
    case 'registered':
      return `Internet code: ${presence.code} (registered with the rendezvous)`;
    case 'reconnecting':
      return `Internet room: the rendezvous is away, registering again by itself${presence.message ? ` (${presence.message})` : ''}`;
    case 'expired':
    case 'closed':
      return `Internet room ${presence.status}${presence.message ? `: ${presence.message}` : ''}`;
  }
}

/**
 * The dedicated host's internet room: the internet reach's opening (a socket mux for the room's Server, TURN
 * credentials from the rendezvous), its presence logged as it changes (a restarted rendezvous: registered again).
 */
export async function openCliInternetRoom(options: CliInternetRoomOptions): Promise<RoomOpening> {
  const { log } = options;
  const logger: Logger = {
    info: (message) => log(message),
    warn: (message, ...details) => log([message, ...details.map(String)].join(': ')),
    error: (message, ...details) => log([message, ...details.map(String)].join(': ')),
  };
  const reach = createInternetReach({
    settings: async () => ({ rendezvousUrl: options.rendezvousUrl, turn: { mode: 'shared-secret' } }),
    scheduler: options.scheduler ?? systemScheduler,
    logger,
    ...(options.iceHostAddresses ? { hostAddresses: options.iceHostAddresses } : {}),
  });
  return reach.open(options.capacity !== undefined ? { capacity: options.capacity } : {});
}
