import type { BrowsedServer, LanBrowser } from '../../../main/net/discovery';

/** A LanBrowser that opens nothing: starts and stops on request, lists `servers()` while running (default none). */
export function fakeLanBrowser(servers: () => BrowsedServer[] = () => []): LanBrowser {
  let running = false;
  return {
    get running() {
      return running;
    },
    start: async () => {
      running = true;
    },
    stop: async () => {
      running = false;
    },
    unicastStatus: () => [],
    refresh: async () => undefined,
    servers: () => (running ? servers() : []),
    on: () => () => undefined,
  };
}
