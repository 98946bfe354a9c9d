import type { Logger } from '../base/logger';
import type { RoomReach } from '../reach/roomReach';
import type { DevConditioner } from './devConditioner';

/**
 * A reach whose joins go through the developer link conditioner when a profile is set: the located room's
 * address is relayed (the view keeps the room's own), and the relay closes with the stay. A room reached over
 * its own socket (an internet path) is not an address to relay to, and is left alone; hosting is unchanged.
 */
export function conditionedReach<R extends RoomReach>(
  reach: R,
  dev: Pick<DevConditioner, 'routeTo'>,
  logger: Logger,
): R {
  return {
    ...reach,
    async locate(request, context) {
      const located = await reach.locate(request, context);
      if (located.openSocket) return located;
      let route;
      try {
        route = await dev.routeTo(located.connectTo ?? located.target);
      } catch (error) {
        await located.close();
        throw error;
      }
      if (!route) return located;
      const relay = route;
      return {
        ...located,
        connectTo: { host: relay.host, port: relay.port },
        async close() {
          await relay.close().catch((error: unknown) => logger.warn('closing the join relay failed', error));
          await located.close();
        },
      };
    },
  };
}
