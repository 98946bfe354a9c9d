import { silentLogger } from '../../base/logger';
import type { MapPort } from './portMapping';
import { createRouterPortMapper, removeLeftoverMappings, type RouterPortMapperOptions } from './routerPortMapper';

/**
 * The app's and the headless host's port mapping, built once at start: undefined when it is off (`gateways: []`,
 * as in every test). Clears the mappings a crashed run left in the background (the window or room does not wait
 * for it); a room that asks for a mapping meanwhile waits for that first, so the clearing cannot remove the
 * room's fresh mapping should the router hand out the same external port again.
 */
export function startPortMapping(options: RouterPortMapperOptions): MapPort | undefined {
  if (options.gateways?.length === 0) return undefined;
  const logger = options.logger ?? silentLogger;
  const cleared = removeLeftoverMappings(options).then(
    (removed) => {
      if (removed > 0) logger.info(`removed ${removed} port mapping(s) an earlier run left on the router`);
    },
    // removeLeftoverMappings never rejects; this only keeps a broken promise from stopping every mapping.
    (error: unknown) => logger.warn('could not clear leftover port mappings', error),
  );
  const mapPort = createRouterPortMapper(options);
  return async (request) => {
    await cleared;
    return mapPort(request);
  };
}
